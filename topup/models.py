from django.db import models
from django.utils.translation import gettext_lazy as _


class Access(models.Model):
    """Holds the permissions of the Mobile-data top-up pages that belong to no single model.

    Not a table: Django keeps permissions per model, so this unmanaged model gives them a home.
    """

    class Meta:
        managed = False
        default_permissions = ()
        verbose_name = _("Mobile-data top-up access")
        permissions = [
            ("access_topup", _("Can open the top-up pages")),
            ("charge_topup", _("Can place top-up orders")),
            (
                "confirm_manual_topup",
                _("Can record the outcome of an order waiting for manual confirmation"),
            ),
        ]

    def __str__(self) -> str:
        return str(self._meta.verbose_name)
