from django.db import models


class Account(models.Model):
    """The provider account of this data directory: one row, credentials fixed at creation.

    A reset clears data but keeps these, so the info file stays valid.
    """

    sms_token = models.CharField(max_length=64)
    topup_appkey = models.CharField(max_length=16)
    topup_appsecret = models.CharField(max_length=32)
    storage_bucket = models.CharField(max_length=64)
    storage_operator = models.CharField(max_length=64)
    storage_password = models.CharField(max_length=64)
    delivery_token_secret = models.CharField(max_length=64)
    # The console API's login (`POST /oauth/tokens`), a person's account at the provider.
    console_username = models.CharField(max_length=64, default="demo")
    console_password = models.CharField(max_length=64, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"sandbox account {self.storage_bucket}"


class ClockState(models.Model):
    """How far the sandbox clock runs ahead of real time (one row)."""

    offset_s = models.FloatField(default=0.0)

    def __str__(self) -> str:
        return f"clock offset {self.offset_s}s"


class Fault(models.Model):
    """An injected fault: matching requests get a status, a delay, a drop or a timeout."""

    class Action(models.TextChoices):
        STATUS = "status"
        DELAY = "delay"
        DROP = "drop"
        TIMEOUT = "timeout"

    class When(models.TextChoices):
        BEFORE = "before"
        AFTER = "after"

    service = models.CharField(max_length=20)
    path = models.CharField(max_length=500)
    method = models.CharField(max_length=10, blank=True)
    action = models.CharField(max_length=10, choices=Action.choices)
    status = models.PositiveSmallIntegerField(null=True)
    body = models.JSONField(null=True)
    delay_ms = models.PositiveIntegerField(default=0)
    times = models.PositiveIntegerField(null=True, help_text="null: every matching request")
    remaining = models.PositiveIntegerField(null=True)
    probability = models.FloatField(default=1.0)
    when = models.CharField(max_length=6, choices=When.choices, default=When.BEFORE)
    hits = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.action} on {self.service} {self.method or '*'} {self.path}"

    def as_dict(self) -> dict[str, object]:
        return {
            "id": self.id, "service": self.service, "path": self.path,
            "method": self.method or None, "action": self.action, "status": self.status,
            "body": self.body, "delay_ms": self.delay_ms, "times": self.times,
            "remaining": self.remaining, "probability": self.probability, "when": self.when,
            "hits": self.hits,
        }
