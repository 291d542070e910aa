"""The console's records (docs/decisions.md, "Services, domains and the console API").

Times are unix seconds on the sandbox clock, like every other sandbox record.
"""

from __future__ import annotations

from django.db import models

# Seconds a mirrored file is kept by default; the console requires more than 86400.
DEFAULT_MIRROR_CACHE_S = 7 * 86400


class Service(models.Model):
    """A service (the provider's "bucket"): a storage service (`file`: a bucket, its operators,
    its domains) or a CDN service over the merchant's own origin (`cdn`)."""

    class BusinessType(models.TextChoices):
        FILE = "file"
        CDN = "cdn"

    class Line(models.TextChoices):
        AUTO = "auto"
        TELECOM = "telecom"
        UNICOM = "unicom"
        CMCC = "cmcc"

    class Mirror(models.TextChoices):
        ON = "on"
        PAUSED = "paused"
        OFF = "off"

    bucket_id = models.BigAutoField(primary_key=True)
    name = models.CharField(max_length=40, unique=True)
    business_type = models.CharField(max_length=4, choices=BusinessType.choices)
    # The storage entry address chosen in the console; always `auto` for a cdn service.
    line = models.CharField(max_length=7, choices=Line.choices, default=Line.AUTO)
    created_at = models.FloatField()
    # cdn only: [{"address": "http(s)://host[:port]", "weight": 1-100, "backup": bool}]
    origins = models.JSONField(default=list)
    # cdn only: mirror storage into a file service of the account.
    mirror_status = models.CharField(max_length=6, choices=Mirror.choices, default=Mirror.OFF)
    mirror_storage_bucket = models.CharField(max_length=40, blank=True)
    mirror_cache_seconds = models.PositiveIntegerField(default=DEFAULT_MIRROR_CACHE_S)
    mirror_changed_at = models.FloatField(null=True)

    class Meta:
        ordering = ["-bucket_id"]  # newest first, as the console lists them

    def __str__(self) -> str:
        return f"{self.business_type} service {self.name}"

    @property
    def is_file(self) -> bool:
        return self.business_type == self.BusinessType.FILE


class Operator(models.Model):
    """An operator of a storage service: its name and password sign storage, media and purge
    requests for that service's bucket only."""

    service = models.ForeignKey(Service, on_delete=models.CASCADE, related_name="operators")
    name = models.CharField(max_length=64)
    password = models.CharField(max_length=64)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["service", "name"],
                                               name="sandbox_console_operator_unique")]

    def __str__(self) -> str:
        return f"operator {self.name} of {self.service_id}"


class Domain(models.Model):
    """A host name (lowercase, no port, no trailing dot) bound to exactly one service."""

    service = models.ForeignKey(Service, on_delete=models.CASCADE, related_name="domains")
    name = models.CharField(max_length=253, unique=True)
    created_at = models.FloatField()

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


class AccessToken(models.Model):
    """A console Bearer token, stored as its SHA-256 only. Kept by a reset, like the login it
    was obtained with (several processes may each hold one)."""

    kept_on_reset = True  # read by sandbox.core.control.reset_sandbox

    digest = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=200, blank=True)
    scope = models.CharField(max_length=200, blank=True)
    created_at = models.FloatField()
    expires_at = models.FloatField()

    def __str__(self) -> str:
        return f"console token {self.name or self.pk}"


class Certificate(models.Model):
    """An uploaded PEM certificate and its private key (`POST /https/certificate/`)."""

    certificate_id = models.CharField(max_length=32, unique=True)
    certificate = models.TextField()
    private_key = models.TextField()
    created_at = models.FloatField()

    def __str__(self) -> str:
        return f"certificate {self.certificate_id}"


class Operation(models.Model):
    """One accepted refresh or preheat item; its progress follows the sandbox clock."""

    class Type(models.TextChoices):
        URL = "url"
        RULE = "rule"
        PREHEAT = "preheat"
        SITE = "site"

    type = models.CharField(max_length=7, choices=Type.choices)
    url = models.TextField()
    created_at = models.FloatField(db_index=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.type} {self.url}"
