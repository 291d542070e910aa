"""State of the emulated SMS service: the account owner, behaviour settings, templates,
messages and per-number delivery outcomes.

Every time the rules need is sandbox time (`sandbox.core.clock`), stored both as a datetime for
display and as unix seconds for due-time arithmetic.
"""

from __future__ import annotations

from django.db import models

DEFAULT_QUOTA = 1000
OWNER_PK = 1  # one account per sandbox, so one owner row with a fixed number
SETTINGS_PK = 1


class ReportType(models.TextChoices):
    VIP = "vip"
    GENERAL = "general"


class MessageType(models.TextChoices):
    INDUSTRY = "industry"
    MARKETING = "marketing"


class SignLocation(models.TextChoices):
    TOP = "top"
    BOTTOM = "bottom"


class TemplateStatus(models.TextChoices):
    REVIEW = "review"
    SUCCESS = "success"
    DEFEAT = "defeat"


class MessageStatus(models.TextChoices):
    PROCESSING = "processing"
    SUCCESS = "success"
    FAILED = "failed"


class Owner(models.Model):
    """The object the spec calls "the service" (JSON field `owner`): quotas and counters."""

    name = models.CharField(max_length=64, default="sandbox-demo")
    general = models.IntegerField(default=DEFAULT_QUOTA, help_text="ordinary-channel units left")
    vip = models.IntegerField(default=DEFAULT_QUOTA, help_text="signature-exempt units left")
    industry = models.IntegerField(default=0, help_text="industry messages delivered")
    marketing = models.IntegerField(default=0, help_text="marketing messages delivered")

    def __str__(self) -> str:
        return f"sms owner {self.name}"


class SmsSettings(models.Model):
    """How the emulator behaves: review and delivery timing, carrier failure rate (one row)."""

    auto_review = models.BooleanField(default=True)
    review_delay_s = models.FloatField(default=60.0)
    # "fixed": auto-review approves review_delay_s after submission. "working_days": as the
    # spec's review times, on working days (Monday to Friday, Asia/Shanghai): vip 3 hours;
    # general 5 working days, or 3 hours when the signature is filed (FiledSignature).
    review_clock = models.CharField(max_length=12, default="fixed")
    delivery_delay_s = models.FloatField(default=5.0)
    failure_rate = models.FloatField(default=0.0)
    calls_per_second = models.PositiveIntegerField(default=0)  # sending; 0: no limit
    # Seconds a send call waits before it is worked on: a real provider's answer time is mostly
    # network and queueing, which the sandbox, answering from the same machine, lacks.
    send_latency_s = models.FloatField(default=0.0)

    def __str__(self) -> str:
        return "sms settings"


class SensitiveWord(models.Model):
    """A word the provider refuses in a template or a message (sms-and-topup.md: no politically
    sensitive or vulgar wording); the control API sets the list."""

    word = models.CharField(max_length=64, unique=True)

    def __str__(self) -> str:
        return f"sensitive word {self.word}"


class FiledSignature(models.Model):
    """A signature filed with the provider (the control API files it): its general-channel
    templates are reviewed in hours, not days."""

    temp_sign = models.CharField(max_length=64, unique=True)

    def __str__(self) -> str:
        return f"filed signature {self.temp_sign}"


class Template(models.Model):
    title = models.CharField(max_length=64)
    temp_sign = models.CharField(max_length=64)
    content = models.TextField()
    sign_location = models.CharField(max_length=6, choices=SignLocation.choices)
    type = models.CharField(max_length=9, choices=MessageType.choices)
    report_type = models.CharField(max_length=7, choices=ReportType.choices)
    status = models.CharField(max_length=7, choices=TemplateStatus.choices,
                              default=TemplateStatus.REVIEW)
    updated_at = models.DateTimeField()
    # When the current version went to review: auto-review approves it review_delay_s later.
    submitted_ts = models.FloatField()

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["status", "submitted_ts"]),
                   models.Index(fields=["report_type"])]

    def __str__(self) -> str:
        return f"sms template {self.pk} {self.title}"


class Message(models.Model):
    """One message to one number. Template fields are copied at send time: the report must
    keep showing what was sent even after the template is edited or deleted."""

    template_id = models.BigIntegerField()
    report_type = models.CharField(max_length=7, choices=ReportType.choices)
    title = models.CharField(max_length=64)
    type = models.CharField(max_length=9, choices=MessageType.choices)
    content = models.TextField(help_text="delivered text: rendered content with 【sign】")
    temp_sign = models.CharField(max_length=64)
    mobile = models.CharField(max_length=11, help_text="national 11-digit number")
    created_at = models.DateTimeField()
    created_ts = models.FloatField()
    day = models.DateField(help_text="Asia/Shanghai day of created_at")
    sent_at = models.DateTimeField(null=True)
    status = models.CharField(max_length=10, choices=MessageStatus.choices,
                              default=MessageStatus.PROCESSING)
    quantity = models.PositiveIntegerField(help_text="billing units of this message")
    # A marketing template without the unsubscribe wording: the message is bound to fail.
    missing_unsubscribe = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "created_ts"]),
                   models.Index(fields=["mobile", "day", "type"]),
                   models.Index(fields=["day"]),
                   # The units held by messages in progress, summed by every send call
                   # (sending.check_funds) from the index alone: reading each row instead
                   # took 30 ms a call once 20,000 messages awaited their reports.
                   models.Index(fields=["status", "report_type", "quantity"],
                                name="sms_message_held_units")]

    def __str__(self) -> str:
        return f"sms message {self.pk} to {self.mobile}"


class OutcomeRule(models.Model):
    """A carrier answer forced for one number, so tests can decide who fails."""

    mobile = models.CharField(max_length=11, unique=True)
    status = models.CharField(max_length=10, choices=[
        (MessageStatus.SUCCESS, "success"), (MessageStatus.FAILED, "failed")])

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.mobile} -> {self.status}"
