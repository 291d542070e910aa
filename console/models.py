"""Services, their origins and domains, as the provider's console knows them.

A service created from the environment (`STORAGE_*`, `DELIVERY_*`) is marked so: its address
and credentials are read from the environment at every use, so the variables keep working as
they always did; every other service keeps its own, sealed (`console.sealed`).
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from console.sealed import SealedField

SERVICE_NAME = RegexValidator(
    r"^[a-z][a-z0-9-]{4,39}$",
    _("5 to 40 lowercase letters, digits and hyphens, starting with a letter."),
)
DOMAIN_NAME = RegexValidator(
    r"^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$",
    _("A host name such as img.example.com: lowercase, without scheme, port or path."),
)
# The public docs' rule (cdn/advanced.md): mirrored files must stay cached more than a day.
MIRROR_MIN_CACHE_SECONDS = 86400


class Access(models.Model):
    """Holds the permissions of the services pages; not a table (see the other apps' Access)."""

    class Meta:
        managed = False
        default_permissions = ()
        verbose_name = _("Services access")
        permissions = [
            ("access_services", _("Can open the services and domains pages")),
            ("manage_services", _("Can add and change services, origins and domains")),
        ]

    def __str__(self) -> str:
        return str(self._meta.verbose_name)


class ServiceKind(models.TextChoices):
    STORAGE = "file", _("Storage service")
    CDN = "cdn", _("CDN service with its own origin")


class EntryLine(models.TextChoices):
    """storage-and-media.md's four entry addresses of the storage API."""

    AUTO = "auto", _("Smart routing (recommended)")
    TELECOM = "telecom", _("China Telecom line")
    UNICOM = "unicom", _("China Unicom line")
    CMCC = "cmcc", _("China Mobile line")


class MirrorStatus(models.TextChoices):
    OFF = "off", _("Off")
    ON = "on", _("On")
    PAUSED = "paused", _("Paused")


class PublishState(models.TextChoices):
    """Whether the console holds what this record says; a failed call keeps its answer."""

    PUBLISHED = "published", _("Published")
    PENDING = "pending", _("Not published yet")
    FAILED = "failed", _("Not published")


class Service(models.Model):
    name = models.CharField(_("name"), max_length=40, unique=True, validators=[SERVICE_NAME],
                            help_text=_("The service's name at the provider (the bucket)."))
    kind = models.CharField(_("kind"), max_length=4, choices=ServiceKind.choices,
                            default=ServiceKind.STORAGE)
    label = models.CharField(_("description"), max_length=100, blank=True,
                             help_text=_("What staff call it, e.g. “Product images”."))
    operator = models.CharField(_("operator"), max_length=64, blank=True)
    operator_password = SealedField(_("operator password"), blank=True)
    line = models.CharField(_("entry address"), max_length=8, choices=EntryLine.choices,
                            default=EntryLine.AUTO)
    from_environment = models.BooleanField(
        _("set by the environment"), default=False, editable=False,
        help_text=_("Address and credentials are read from STORAGE_* at every use."))
    mirror_status = models.CharField(_("mirror storage"), max_length=6,
                                     choices=MirrorStatus.choices, default=MirrorStatus.OFF)
    mirror_bucket = models.ForeignKey(
        "self", verbose_name=_("mirror into"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="mirrored_by",
        limit_choices_to={"kind": ServiceKind.STORAGE})
    mirror_cache_seconds = models.PositiveIntegerField(
        _("cache time of mirrored files (seconds)"), null=True, blank=True,
        validators=[MinValueValidator(MIRROR_MIN_CACHE_SECONDS + 1)])
    # Mirror storage is one resource at the console (PUT /buckets/mirror): its publication
    # state, and when the current migration began (off -> on), which bounds "files migrated".
    mirror_state = models.CharField(_("mirror storage published"), max_length=9,
                                    choices=PublishState.choices, default=PublishState.PUBLISHED)
    mirror_error = models.CharField(_("console's answer"), max_length=500, blank=True)
    mirror_since = models.DateTimeField(_("mirror storage on since"), null=True, blank=True)
    provider_seen_at = models.DateTimeField(_("last listed by the provider"), null=True,
                                            blank=True)
    # Per-service permissions: a content manager of the videos bucket only, say. Empty: every
    # group whose permissions open the app's pages may work on this service.
    groups = models.ManyToManyField(
        "auth.Group", verbose_name=_("limited to groups"), blank=True, related_name="+",
        help_text=_("Leave empty to let every group with access work on this service."))
    # The origin list is published as a whole (PUT /buckets/origins), so its state is here.
    origins_state = models.CharField(_("origins published"), max_length=9,
                                     choices=PublishState.choices, default=PublishState.PUBLISHED)
    origins_error = models.CharField(_("console's answer"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("updated by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["name"]
        verbose_name = _("service")
        verbose_name_plural = _("services")

    def __str__(self) -> str:
        return f"{self.name} ({self.label})" if self.label else self.name

    @property
    def is_storage(self) -> bool:
        return self.kind == ServiceKind.STORAGE

    @property
    def is_cdn(self) -> bool:
        return self.kind == ServiceKind.CDN

    @property
    def needs_operator(self) -> bool:
        """A storage service the back-office cannot use yet: listed by the provider, no
        operator given (the environment's service has its own, in STORAGE_*)."""
        return (self.is_storage and not self.from_environment
                and not (self.operator and self.operator_password))


class Origin(models.Model):
    """One address of a CDN service's own origin; a backup serves only when the others fail."""

    service = models.ForeignKey(Service, verbose_name=_("service"), on_delete=models.CASCADE,
                                related_name="origins")
    position = models.PositiveIntegerField(pgettext_lazy("position", "order"), default=0)
    address = models.CharField(_("address"), max_length=300,
                               help_text=_("http://host or https://host, with an optional :port, "
                                           "without a path."))
    weight = models.PositiveSmallIntegerField(
        _("weight"), default=10, validators=[MinValueValidator(1), MaxValueValidator(100)])
    backup = models.BooleanField(_("backup"), default=False)

    class Meta:
        ordering = ["service", "position", "id"]
        verbose_name = _("origin address")
        verbose_name_plural = _("origin addresses")
        constraints = [
            models.UniqueConstraint(fields=["service", "address"], name="origin_once_a_service"),
            models.CheckConstraint(condition=models.Q(weight__gte=1, weight__lte=100),
                                   name="origin_weight_1_to_100"),
        ]

    def __str__(self) -> str:
        return f"{self.address} ×{self.weight}{' (backup)' if self.backup else ''}"


class Domain(models.Model):
    """A domain bound to a service; delivery settings, rule sets, versions and purges hang here.

    `base_url` is where links point (`https://<name>` when empty); the sandbox's domains need
    their port. The token secret is sealed and never shown again once saved.
    """

    service = models.ForeignKey(Service, verbose_name=_("service"), on_delete=models.PROTECT,
                                related_name="domains")
    name = models.CharField(_("domain"), max_length=253, unique=True, validators=[DOMAIN_NAME])
    base_url = models.CharField(_("link address"), max_length=300, blank=True,
                                help_text=_("Empty: https://<domain>."))
    token_secret = SealedField(_("token secret"), blank=True)
    from_environment = models.BooleanField(
        _("set by the environment"), default=False, editable=False,
        help_text=_("Address and token secret are read from DELIVERY_* at every use."))
    publish_state = models.CharField(_("bound at the provider"), max_length=9,
                                     choices=PublishState.choices, default=PublishState.PUBLISHED)
    publish_error = models.CharField(_("console's answer"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["service", "name"]
        verbose_name = _("domain")
        verbose_name_plural = _("domains")

    def __str__(self) -> str:
        return self.name


class Choice(models.Model):
    """The service and domain a person last chose in the switcher; pages open on them."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="service_choice")
    service = models.ForeignKey(Service, verbose_name=_("service"), null=True,
                                on_delete=models.SET_NULL, related_name="+")
    domain = models.ForeignKey(Domain, verbose_name=_("domain"), null=True,
                               on_delete=models.SET_NULL, related_name="+")
    chosen_at = models.DateTimeField(_("chosen at"), auto_now=True)

    class Meta:
        verbose_name = _("chosen service")
        verbose_name_plural = _("chosen services")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.service_id}/{self.domain_id}"


class ConsoleBearer(models.Model):
    """The one Bearer token of the console API every process shares (row 1), sealed at rest.

    The row is also the lock: a renewal runs under `select_for_update` on it (see
    console.services.token). The token is never shown: not here, not in the admin.
    """

    token = SealedField(_("token"), blank=True)
    expired_at = models.DateTimeField(_("expires at"), null=True, blank=True)
    obtained_at = models.DateTimeField(_("obtained at"), null=True, blank=True)
    renewals = models.PositiveIntegerField(_("renewals"), default=0)

    class Meta:
        default_permissions = ()
        verbose_name = _("console token")

    def __str__(self) -> str:
        # Never the token itself: __str__ ends up in logs and admin pages.
        return f"console token obtained {self.obtained_at}"
