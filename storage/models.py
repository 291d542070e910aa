from django.db import models
from django.utils.translation import gettext_lazy as _


class Access(models.Model):
    """Holds the permissions of the Object storage pages that belong to no single model.

    Not a table: Django keeps permissions per model, so this unmanaged model gives them a home.
    """

    class Meta:
        managed = False
        default_permissions = ()
        verbose_name = _("Object storage access")
        permissions = [
            ("access_storage", _("Can open the storage pages")),
            ("manage_files", _("Can upload, change and delete files and folders")),
        ]

    def __str__(self) -> str:
        return str(self._meta.verbose_name)
