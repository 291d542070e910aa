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


class ProcessHeartbeat(models.Model):
    """The latest sign of life of one worker or beat process, for `/ready`.

    Kept in the shared database so that every web node sees the heartbeats of processes on
    every host; `name` is the host and process id.
    """

    kind = models.CharField(_("kind"), max_length=10)  # "worker" or "beat"
    name = models.CharField(_("process"), max_length=200)
    seen_at = models.DateTimeField(_("last seen"))

    class Meta:
        verbose_name = _("process heartbeat")
        verbose_name_plural = _("process heartbeats")
        constraints = [models.UniqueConstraint(fields=["kind", "name"], name="one_heartbeat")]

    def __str__(self) -> str:
        return f"{self.kind} {self.name} at {self.seen_at:%Y-%m-%d %H:%M:%S}"


class SchedulerLease(models.Model):
    """Who may run beat's schedule until `expires_at`: one active beat, others standing by.

    Taken and renewed with one conditional UPDATE (atomic in PostgreSQL and SQLite alike).
    """

    name = models.CharField(max_length=50, primary_key=True)
    holder = models.CharField(max_length=200, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("scheduler lease")
        verbose_name_plural = _("scheduler leases")

    def __str__(self) -> str:
        return f"{self.name}: {self.holder or '-'}"
