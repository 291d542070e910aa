from django.db import models
from django.utils.translation import gettext_lazy as _


class Access(models.Model):
    """Holds the permissions of the SMS pages that belong to no single model.

    Not a table: Django keeps permissions per model, so this unmanaged model gives them a home.
    """

    class Meta:
        managed = False
        default_permissions = ()
        verbose_name = _("SMS access")
        permissions = [
            ("access_sms", _("Can open the SMS pages")),
            ("send_sms", _("Can send messages and campaigns")),
            ("manage_templates", _("Can create, edit and delete templates")),
        ]

    def __str__(self) -> str:
        return str(self._meta.verbose_name)
