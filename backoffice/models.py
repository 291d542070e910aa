from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from backoffice.catalogue import SERVICES
from backoffice.otp_keys import open_seed


class ProviderContact(models.Model):
    """The outcome of the latest call to one of the provider's services.

    Written by every provider call (see `backoffice.operations.provider`), read by the dashboard
    tiles, so that staff see at a glance whether the provider answered and when.
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


class AuditAppendOnly(Exception):
    """Raised when code tries to change or delete an audit entry: the log is append-only."""


class AuditQuerySet(models.QuerySet["AuditEntry"]):
    """Bulk changes would bypass `AuditEntry.save`/`delete`, so they are refused here too."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise AuditAppendOnly("audit entries cannot be changed")

    def delete(self) -> NoReturn:
        raise AuditAppendOnly("audit entries cannot be deleted")


class AuditOutcome(models.TextChoices):
    OK = "ok", _("succeeded")
    FAILED = "failed", _("failed")
    REFUSED = "refused", _("refused")


class AuditEntry(models.Model):
    """One sensitive action: who, when, from where, on what, and how it ended.

    Append-only: written by `backoffice.security.audit` only, never changed or deleted through the
    application (no change or delete permission exists, and the model refuses both), nor by
    SQL (the database's triggers refuse UPDATE, DELETE and TRUNCATE; see
    `backoffice.security.audit_chain`); each entry's hash chains it to the one before.
    """

    # Set by `record` before the hash is computed (the hash covers it), not at save time.
    at = models.DateTimeField(_("when"), default=timezone.now, editable=False, db_index=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("person"),
                              null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    # Kept as written: the user may be renamed or deleted later, and failed logins name
    # people who do not exist.
    actor_name = models.CharField(_("user name"), max_length=150, blank=True)
    address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    app = models.CharField(_("app"), max_length=20, db_index=True)
    action = models.CharField(_("action"), max_length=60, db_index=True)
    object_type = models.CharField(_("object type"), max_length=60, blank=True)
    object_id = models.CharField(_("object"), max_length=200, blank=True)
    summary = models.CharField(_("summary"), max_length=500, blank=True)
    outcome = models.CharField(_("outcome"), max_length=10, choices=AuditOutcome.choices)
    # The hash chain (backoffice.security.audit_chain): the previous entry's hash, and this
    # entry's, which covers that one and this entry's content.
    prev_hash = models.CharField(_("previous hash"), max_length=64, blank=True, editable=False)
    hash = models.CharField(_("hash"), max_length=64, blank=True, editable=False)

    objects = AuditQuerySet.as_manager()

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["-at", "-pk"]
        default_permissions = ("view",)

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor_name or '-'} {self.app}.{self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise AuditAppendOnly("audit entries cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AuditAppendOnly("audit entries cannot be deleted")


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


class ScheduledRun(models.Model):
    """One scheduled job's run for one due time, claimed by the beat that sends it.

    The active beat inserts this row before it sends the job; the unique (job, due_at) pair
    makes the insert the claim: a beat that takes over and finds the due time taken sends
    nothing (backoffice.operations.beat). Rows older than a week are deleted by the beat.
    """

    job = models.CharField(max_length=200)
    due_at = models.DateTimeField()
    holder = models.CharField(max_length=200)
    claimed_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("scheduled run")
        verbose_name_plural = _("scheduled runs")
        constraints = [models.UniqueConstraint(fields=["job", "due_at"],
                                               name="backoffice_scheduledrun_once")]

    def __str__(self) -> str:
        return f"{self.job} @ {self.due_at.isoformat()}"


class SealedTOTPDevice(TOTPDevice):  # type: ignore[misc]  # django-otp ships no types
    """django-otp's TOTP device read through its sealed seed (`backoffice.otp_keys`):
    `key` holds the seed encrypted, never in hex. A proxy, so the rows stay django-otp's (its
    admin, `devices_for_user`, receivers on TOTPDevice); our own code verifies through it."""

    class Meta:
        proxy = True

    @property
    def bin_key(self) -> bytes:
        return open_seed(self.key)


class RecoveryCode(models.Model):
    """One unused recovery code of a person's recovery-code device (django-otp's StaticDevice,
    whose own tokens would be kept in clear), kept only as its HMAC digest: a code signs in
    once, by deleting its row."""

    device = models.ForeignKey(StaticDevice, on_delete=models.CASCADE,
                               related_name="recovery_codes")
    digest = models.CharField(max_length=64)

    class Meta:
        verbose_name = _("recovery code")
        verbose_name_plural = _("recovery codes")
        constraints = [models.UniqueConstraint(fields=["device", "digest"],
                                               name="recovery_code_once_per_device")]

    def __str__(self) -> str:
        return f"recovery code {self.pk}"


class AddressTally(models.Model):
    """How many refused requests of one kind came from one address in one minute.

    Refused requests (callbacks from addresses outside the allowed list, unknown API tokens)
    are counted here instead of being stored one row each: a flood grows one counter, not a
    table. IPv6 addresses are counted by their /64 network, which one client holds whole.
    `sample_id` names the one record kept in full for the minute (a callback receipt), and
    `reported` whether the minute's count went to the audit log.
    """

    kind = models.CharField(_("kind"), max_length=30)
    address = models.CharField(_("address"), max_length=50)
    minute = models.DateTimeField(_("minute"))
    count = models.PositiveIntegerField(_("count"), default=0)
    sample_id = models.PositiveBigIntegerField(_("sample kept"), null=True, blank=True)
    reported = models.BooleanField(_("reported"), default=False)

    class Meta:
        ordering = ["-minute", "kind", "address"]
        verbose_name = _("refusals per address")
        verbose_name_plural = _("refusals per address")
        constraints = [models.UniqueConstraint(fields=["kind", "address", "minute"],
                                               name="one_tally_per_address_minute")]
        indexes = [models.Index(fields=["reported", "minute"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.address} {self.minute:%Y-%m-%d %H:%M}: {self.count}"
