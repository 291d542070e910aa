from django.db import models
from django.utils.translation import gettext_lazy as _


class Access(models.Model):
    """Holds the permissions of the Media processing pages that belong to no single model.

    Not a table: Django keeps permissions per model, so this unmanaged model gives them a home.
    """

    class Meta:
        managed = False
        default_permissions = ()
        verbose_name = _("Media processing access")
        permissions = [
            ("access_media", _("Can open the media-processing pages")),
            ("run_media_jobs", _("Can run media-processing jobs")),
        ]

    def __str__(self) -> str:
        return str(self._meta.verbose_name)
