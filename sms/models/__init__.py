"""SMS records: the provider's templates and quotas mirrored, and our campaigns and messages.

State machines (every change is a conditional update in `sms.services.campaigns` and
`sms.services.reports`):

Campaign: draft -> queued -> sending -> done, with halted (a refusal that needs staff, e.g.
the template is under review or the quota ran out; resumable) and cancelled (final). A draft
confirmed for later is `scheduled` until beat starts it (-> queued) at `scheduled_at`. A
marketing campaign outside the sending window (`SMS_MARKETING_WINDOW`) waits (sending ->
waiting) until `resume_at`, when beat queues it again (`sms.services.scheduling`).

Chunk (at most 1000 numbers of one campaign): pending -> sending -> sent. A chunk is marked
`sending` before its first call and `sent` once every number in it has a result.

Message (one recipient): queued -> submitting -> processing -> success | failed, or
submitting -> rejected (the provider refused this number), or queued -> cancelled.
`submitting` is written before the call that carries the number; a message found in that
state after a crash is reconciled against the delivery report, never blindly resent.
`success`, `failed`, `rejected` and `cancelled` are final; any status the provider reports that
we do not know is stored verbatim and treated as not final.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from sms.rules import ILLEGAL_MOBILE
from sms.verbatim import PROVIDER_CODE_LENGTH


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
            ("override_quiet_hours", _("Can send a marketing campaign outside the sending window")),
        ]

    def __str__(self) -> str:
        return str(self._meta.verbose_name)


class TemplateStatus(models.TextChoices):
    REVIEW = "review", _("Under review")
    SUCCESS = "success", _("Approved")
    DEFEAT = "defeat", _("Rejected")


class MessageType(models.TextChoices):
    INDUSTRY = "industry", _("Industry")
    MARKETING = "marketing", _("Marketing")


class ReportType(models.TextChoices):
    GENERAL = "general", _("General channel")
    VIP = "vip", _("Signature-exempt (VIP) channel")


class SignLocation(models.TextChoices):
    TOP = "top", _("Top")
    BOTTOM = "bottom", _("Bottom")


class Template(models.Model):
    """A template as the provider last described it; `provider_id` is the provider's number."""

    provider_id = models.PositiveBigIntegerField(_("template number"), unique=True)
    title = models.CharField(_("title"), max_length=40)
    temp_sign = models.CharField(_("signature"), max_length=40)
    content = models.TextField(pgettext_lazy("template field", "content"))
    sign_location = models.CharField(
        _("signature position"), max_length=10, choices=SignLocation.choices
    )
    type = models.CharField(_("type"), max_length=12, choices=MessageType.choices)
    report_type = models.CharField(_("channel"), max_length=10, choices=ReportType.choices)
    # Any value the provider sends is kept verbatim, so no `choices` validation here.
    status = models.CharField(_("status"), max_length=PROVIDER_CODE_LENGTH, db_index=True)
    provider_updated_at = models.DateTimeField(_("updated at the provider"))
    synced_at = models.DateTimeField(_("synced at"), default=timezone.now)
    removed_at = models.DateTimeField(
        _("removed at"),
        null=True,
        blank=True,
        help_text=_("Set when the provider no longer lists the template; kept for history."),
    )
    # Ours only (the provider knows nothing of it): marketing templates always respect the
    # suppression list; an industry template only when this is set.
    respect_suppression = models.BooleanField(
        _("respects the suppression list"),
        default=False,
        help_text=_(
            "Marketing templates always skip suppressed numbers; an industry template only "
            "when this is ticked."
        ),
    )

    class Meta:
        verbose_name = _("template")
        verbose_name_plural = _("templates")
        ordering = ["-provider_id"]

    def __str__(self) -> str:
        return f"#{self.provider_id} {self.title}"

    @property
    def respects_suppression(self) -> bool:
        return self.type == MessageType.MARKETING or self.respect_suppression

    @property
    def status_label(self) -> str:
        known = dict(TemplateStatus.choices)
        if self.status in known:
            return str(known[self.status])
        return str(_("Unknown status (%(status)s)") % {"status": self.status})


class Quota(models.Model):
    """The latest quota figures of a provider account (the JSON field `owner`)."""

    owner_id = models.PositiveBigIntegerField(_("account number"), unique=True)
    name = models.CharField(_("account name"), max_length=100)
    general = models.BigIntegerField(_("general messages left"))
    vip = models.BigIntegerField(_("signature-exempt messages left"))
    industry = models.BigIntegerField(_("industry messages sent"))
    marketing = models.BigIntegerField(_("marketing messages sent"))
    fetched_at = models.DateTimeField(_("fetched at"))

    class Meta:
        verbose_name = _("quota")
        verbose_name_plural = _("quotas")
        ordering = ["-fetched_at"]

    def __str__(self) -> str:
        return f"{self.name}: general {self.general}, vip {self.vip}"

    def left_for(self, report_type: str) -> int:
        """Units left on the channel a template's `report_type` draws from."""
        return self.vip if report_type == ReportType.VIP else self.general


class CampaignState(models.TextChoices):
    DRAFT = "draft", _("Waiting for confirmation")
    SCHEDULED = "scheduled", _("Scheduled")
    QUEUED = "queued", _("Queued")
    SENDING = "sending", _("Sending")
    DONE = "done", _("Done")
    HALTED = "halted", _("Halted")
    WAITING = "waiting", _("Waiting for the sending window")
    CANCELLED = "cancelled", _("Cancelled")


# States staff may cancel from (the cancel path is the same for all of them).
CANCELLABLE_STATES = (
    CampaignState.SCHEDULED,
    CampaignState.QUEUED,
    CampaignState.SENDING,
    CampaignState.HALTED,
    CampaignState.WAITING,
)


class CampaignSource(models.TextChoices):
    IMPORT = "import", _("File import")
    FORM = "form", _("Send page")
    COMMAND = "command", _("Command line")


class Campaign(models.Model):
    """One send of one template to many numbers, sent in chunks by the worker."""

    template = models.ForeignKey(
        Template, on_delete=models.PROTECT, related_name="campaigns", verbose_name=_("template")
    )
    source = models.CharField(_("source"), max_length=10, choices=CampaignSource.choices)
    source_name = models.CharField(_("file name"), max_length=255, blank=True)
    source_file = models.FileField(_("uploaded file"), upload_to="sms/imports/", blank=True)
    # False: kept before kept files were private (a guessable name, no content secret), until
    # `secure_kept_files` has copied it to the private form (docs/access.md, "Private files").
    file_is_private = models.BooleanField(_("file kept privately"), default=True, editable=False)
    encoding = models.CharField(_("file encoding"), max_length=20, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Set when staff confirm for later; beat starts the campaign at this time (UTC stored).
    scheduled_at = models.DateTimeField(_("scheduled for"), null=True, blank=True)
    # A waiting marketing campaign is queued again at this time (the window's next opening).
    resume_at = models.DateTimeField(_("resumes at"), null=True, blank=True)
    # Who let this one campaign send outside the marketing window, and when.
    window_override_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("sending window overridden by"),
    )
    window_override_at = models.DateTimeField(
        _("sending window overridden at"), null=True, blank=True
    )
    state = models.CharField(
        _("state"), max_length=10, choices=CampaignState.choices, default=CampaignState.DRAFT
    )
    # The refusal or failure that stopped the last run: a provider error code and its text.
    halt_code = models.CharField(_("stopped by"), max_length=40, blank=True)
    halt_detail = models.CharField(_("detail"), max_length=500, blank=True)
    lines_read = models.PositiveIntegerField(_("lines read"), default=0)
    skipped_header = models.BooleanField(_("first line skipped as a header"), default=False)
    total_numbers = models.PositiveIntegerField(_("numbers"), default=0)
    total_units = models.PositiveIntegerField(_("units"), default=0)
    bad_lines = models.PositiveIntegerField(_("bad lines"), default=0)
    # Lines set aside because their number is on the suppression list (not bad lines: they
    # never block a send, they are just not sent).
    suppressed_lines = models.PositiveIntegerField(_("suppressed lines"), default=0)
    accepted_count = models.PositiveIntegerField(_("accepted"), default=0)
    rejected_count = models.PositiveIntegerField(_("rejected"), default=0)
    cancelled_count = models.PositiveIntegerField(_("cancelled"), default=0)
    # The numbers by heading once every one is final (sms.services.progress): counted once.
    settled_counts = models.JSONField(_("numbers by heading once settled"), null=True,
                                      blank=True, editable=False)
    # Lease: the worker run that may send this campaign, until when. Taken and renewed with
    # conditional updates, so two workers never send the same campaign at once.
    lease_owner = models.CharField(max_length=40, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    retries = models.PositiveSmallIntegerField(_("retries after uncertain answers"), default=0)

    class Meta:
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["state", "lease_expires_at"], name="sms_campaign_lease"),
            # Beat's due campaigns: scheduled ones by start time, waiting ones by resume time.
            models.Index(
                fields=["scheduled_at"],
                name="sms_campaign_scheduled",
                condition=models.Q(state="scheduled"),
            ),
            models.Index(
                fields=["resume_at"],
                name="sms_campaign_waiting",
                condition=models.Q(state="waiting"),
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.template.title} ({self.get_state_display()})"

    @property
    def done_count(self) -> int:
        return self.accepted_count + self.rejected_count + self.cancelled_count

    @property
    def progress_percent(self) -> int:
        if not self.total_numbers:
            return 100 if self.state == CampaignState.DONE else 0
        return min(100, (100 * self.done_count) // self.total_numbers)

    @property
    def is_running(self) -> bool:
        return self.state in (CampaignState.QUEUED, CampaignState.SENDING)

    @property
    def cancellable(self) -> bool:
        return self.state in CANCELLABLE_STATES

    @property
    def window_overridden(self) -> bool:
        return self.window_override_at is not None


class ChunkState(models.TextChoices):
    PENDING = "pending", _("Pending")
    SENDING = "sending", _("Sending")
    SENT = "sent", _("Sent")


class Chunk(models.Model):
    """At most 1000 numbers of a campaign, sent and recorded before the next chunk starts."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="chunks")
    number = models.PositiveIntegerField(_("chunk"))
    size = models.PositiveIntegerField(_("numbers"), default=0)
    state = models.CharField(
        _("state"), max_length=10, choices=ChunkState.choices, default=ChunkState.PENDING
    )
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("chunk")
        verbose_name_plural = _("chunks")
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="sms_chunk_number")
        ]

    def __str__(self) -> str:
        return f"campaign {self.campaign_id} chunk {self.number} ({self.state})"


class MessageStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    SUBMITTING = "submitting", _("Submitting")
    REJECTED = "rejected", _("Rejected")
    PROCESSING = "processing", _("Processing")
    SUCCESS = "success", _("Delivered")
    # "Failed" alone is every app's word (失败); a message's is "failed to send" (发送失败).
    FAILED = "failed", pgettext_lazy("sms message", "Failed")
    CANCELLED = "cancelled", _("Cancelled")


FINAL_MESSAGE_STATUSES = (
    MessageStatus.SUCCESS,
    MessageStatus.FAILED,
    MessageStatus.REJECTED,
    MessageStatus.CANCELLED,
)
# Every known status but `success`: the delivered messages are most of the table, and a
# report filtered on them finds a page at once by walking the primary key newest first.
INDEXED_STATUSES = tuple(
    status.value for status in MessageStatus if status != MessageStatus.SUCCESS
)


class Message(models.Model):
    """One recipient of a campaign, from our intent to the provider's final status."""

    # No database constraints on these two: PostgreSQL checks a foreign key row by row at
    # commit, which costs more than all the indexes together on a 100,000-line import
    # (bench/sms_import.py). Messages are only written by `sms.services.campaign_store`, with their
    # campaign and chunk in the same transaction, and deleted with them by the ORM's cascade.
    campaign = models.ForeignKey(
        Campaign,
        on_delete=models.CASCADE,
        related_name="messages",
        db_index=False,  # covered by the (campaign, id) index below
        db_constraint=False,
        verbose_name=_("campaign"),
    )
    chunk = models.ForeignKey(
        Chunk,
        on_delete=models.CASCADE,
        related_name="messages",
        db_constraint=False,
        verbose_name=_("chunk"),
    )
    line_number = models.PositiveIntegerField(_("line"), null=True, blank=True)
    mobile = models.CharField(_("mobile"), max_length=11)
    # The variable values exactly as the send call carries them: joined by "|" (no value may
    # contain it), in variable order; empty for a template without variables.
    vars = models.TextField(_("variable values"), blank=True)
    text = models.TextField(_("text"))
    units = models.PositiveSmallIntegerField(_("units"))
    carrier = models.CharField(_("carrier"), max_length=4, blank=True)
    # Any provider status we do not know is kept verbatim, so no `choices` validation here.
    status = models.CharField(
        _("status"), max_length=PROVIDER_CODE_LENGTH, default=MessageStatus.QUEUED
    )
    error_code = models.CharField(_("error code"), max_length=PROVIDER_CODE_LENGTH, blank=True)
    provider_message_id = models.BigIntegerField(
        _("provider message number"), null=True, blank=True
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    units_billed = models.PositiveSmallIntegerField(_("units billed"), null=True, blank=True)
    status_changed_at = models.DateTimeField(_("status changed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        ordering = ["-id"]
        # The delivery report pages newest first (keyset on id) within each filter. Every
        # index costs time on each imported row, so the ones that only matter once a message
        # is sent are partial: a freshly imported (queued, unsent) row is not in them.
        indexes = [
            models.Index(fields=["campaign", "id"], name="sms_message_campaign"),
            models.Index(fields=["mobile", "id"], name="sms_message_mobile"),
            # A status filter of the report: without an index, a page of queued or processing
            # messages walks every delivered row first (bench/sms_import.py keeps the cost of
            # indexing queued rows on import in check).
            models.Index(
                fields=["status", "id"],
                name="sms_message_status",
                condition=models.Q(status__in=INDEXED_STATUSES),
            ),
            # The report's "unknown status" filter: the same condition as its query.
            models.Index(
                fields=["id"],
                name="sms_message_unknown_status",
                condition=~models.Q(status__in=MessageStatus.values),
            ),
            # Today's figures on the dashboard, and the report's dates (those of the send).
            # With the columns a dated report page filters and sorts on, so that a day in the
            # past finds its newest ids from the index alone (sms.services.search.page).
            models.Index(
                fields=["submitted_at"],
                name="sms_message_submitted",
                condition=models.Q(submitted_at__isnull=False),
                include=["id", "status", "campaign"],
            ),
            # The campaign page's "invalid numbers" (sms.services.suppression): rare rows, so
            # a tiny index that a fresh import (error code empty) never touches.
            models.Index(
                fields=["campaign", "mobile"],
                name="sms_message_invalid",
                condition=models.Q(error_code=ILLEGAL_MOBILE),
            ),
            # The report sync's open messages.
            models.Index(
                fields=["submitted_at"],
                name="sms_message_open",
                condition=models.Q(provider_message_id__isnull=False)
                & ~models.Q(status__in=FINAL_MESSAGE_STATUSES),
            ),
        ]
        constraints = [
            # Partial: rows waiting to be sent (all of a fresh import) cost no index entry.
            models.UniqueConstraint(
                fields=["provider_message_id"],
                condition=models.Q(provider_message_id__isnull=False),
                name="sms_message_provider_id",
            )
        ]

    def __str__(self) -> str:
        return f"{self.mobile} ({self.status})"

    @property
    def status_label(self) -> str:
        known = dict(MessageStatus.choices)
        if self.status in known:
            return str(known[self.status])
        return str(_("Unknown status (%(status)s)") % {"status": self.status})

    @property
    def status_known(self) -> bool:
        return self.status in MessageStatus.values

    @property
    def values(self) -> list[str]:
        return self.vars.split("|") if self.vars else []

    @property
    def is_final(self) -> bool:
        return self.status in FINAL_MESSAGE_STATUSES


class ReportSyncState(models.Model):
    """The delivery report sync's bookkeeping: one row (pk 1).

    The lease lets one sync run at a time (taken and renewed with conditional updates, like a
    campaign's). `cursors` maps a report day (`YYYY-MM-DD`, Asia/Shanghai) to the page the next
    run reads first, so that a day longer than one run can read is covered over several runs.
    """

    lease_owner = models.CharField(max_length=40, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    cursors = models.JSONField(default=dict, blank=True)
    finished_at = models.DateTimeField(_("last sync finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("report sync state")
        verbose_name_plural = _("report sync states")
        default_permissions = ()  # bookkeeping of the sync job, never edited by staff

    def __str__(self) -> str:
        return f"report sync (lease until {self.lease_expires_at})"


class ImportProblem(models.Model):
    """A line of an import file that will not be sent, with the reason (one row per problem)."""

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="problems", verbose_name=_("campaign")
    )
    line_number = models.PositiveIntegerField(_("line"))
    mobile = models.CharField(_("mobile as written"), max_length=64, blank=True)
    code = models.CharField(_("reason"), max_length=40)
    params = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        verbose_name = _("import problem")
        verbose_name_plural = _("import problems")
        ordering = ["campaign", "line_number", "id"]

    def __str__(self) -> str:
        return f"line {self.line_number}: {self.code}"


# The suppression list, the blocked words and the archived months, in modules of their own;
# imported here so that Django finds them and `sms.models` stays the one place to import a
# model from.
from sms.models.archive import MessageArchive  # noqa: E402
from sms.models.campaign_counts import CampaignStatusCount  # noqa: E402
from sms.models.daily import DailySends  # noqa: E402
from sms.models.suppression import (  # noqa: E402
    SuppressedNumber,
    SuppressionImport,
    SuppressionReason,
)
from sms.models.totals import ReportTotals  # noqa: E402
from sms.models.words import BlockedWord  # noqa: E402

__all__ = [
    "CANCELLABLE_STATES", "FINAL_MESSAGE_STATUSES", "INDEXED_STATUSES", "Access", "BlockedWord",
    "Campaign",
    "CampaignSource", "CampaignState", "CampaignStatusCount", "Chunk", "ChunkState", "DailySends",
    "ImportProblem",
    "Message",
    "MessageArchive", "MessageStatus", "MessageType", "Quota", "ReportSyncState",
    "ReportTotals", "ReportType",
    "SignLocation", "SuppressedNumber", "SuppressionImport", "SuppressionReason", "Template",
    "TemplateStatus",
]
