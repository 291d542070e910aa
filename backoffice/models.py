from django.db import models
from django.utils.translation import gettext_lazy as _

from backoffice.services import SERVICES


class ProviderContact(models.Model):
    """The outcome of the latest call to one of the provider's services.

    Written by every provider call (see `backoffice.provider`), read by the dashboard tiles,
    so that staff see at a glance whether the provider answered and when.
    """

    service = models.CharField(
        _("service"), max_length=20, unique=True, choices=[(s.key, s.label) for s in SERVICES]
    )
    ok = models.BooleanField(_("answered"))
    at = models.DateTimeField(_("at"))
    detail = models.CharField(_("detail"), max_length=300, blank=True)
    last_ok_at = models.DateTimeField(_("last answer at"), null=True, blank=True)

    class Meta:
        verbose_name = _("provider contact")
        verbose_name_plural = _("provider contacts")

    def __str__(self) -> str:
        return f"{self.service}: {'ok' if self.ok else 'failed'} at {self.at:%Y-%m-%d %H:%M:%S}"
