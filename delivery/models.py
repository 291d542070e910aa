from django.db import models
from django.utils.translation import gettext_lazy as _


class Access(models.Model):
    """Holds the permissions of the Content delivery pages that belong to no single model.

    Not a table: Django keeps permissions per model, so this unmanaged model gives them a home.
    """

    class Meta:
        managed = False
        default_permissions = ()
        verbose_name = _("Content delivery access")
        permissions = [
            ("access_delivery", _("Can open the content-delivery pages")),
            ("manage_delivery", _("Can change delivery settings and rule sets")),
            ("purge_cache", _("Can refresh the edge cache")),
        ]

    def __str__(self) -> str:
        return str(self._meta.verbose_name)
