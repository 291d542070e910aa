"""SMS use cases: the one place where the provider client and our records meet.

Pages, tasks and commands call these functions; the work itself lives in small modules:
`template_ops` (templates and quota), `campaign_store` (import and recipients -> rows),
`campaigns` (chunked sending and reconciliation), `reports` (delivery report sync) and
`search` (the delivery report page).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from datetime import datetime, time
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from backoffice.provider import ProviderNotConfigured
from sms import importing
from sms.campaign_store import store_import, store_recipients, store_upload
from sms.campaigns import RunOutcome, run_campaign, stalled_campaigns
from sms.client import MAX_NUMBERS_PER_SEND
from sms.connection import latest_quota, sms_client
from sms.models import (
    Campaign,
    CampaignSource,
    CampaignState,
    Message,
    MessageStatus,
    Quota,
    Template,
)
from sms.reports import ReportSync, sync_reports
from sms.template_ops import (
    TemplateProblems,
    TemplateSync,
    create_template,
    delete_template,
    draft_of,
    edit_template,
    refresh_quota,
    send_blockers,
    sync_templates,
)

__all__ = [
    "CampaignStateError",
    "ProviderNotConfigured",
    "RecipientsPreview",
    "ReportSync",
    "RunOutcome",
    "TemplateProblems",
    "TemplateSync",
    "cancel_campaign",
    "confirm_campaign",
    "create_template",
    "delete_template",
    "discard_campaign",
    "draft_of",
    "edit_template",
    "enqueue_campaign",
    "latest_quota",
    "preview_recipients",
    "refresh_quota",
    "resume_campaign",
    "resume_stalled_campaigns",
    "run_campaign",
    "send_blockers",
    "send_recipients",
    "sms_client",
    "store_import",
    "store_upload",
    "sync_reports",
    "sync_templates",
    "today_figures",
]

SYNC_SEND_BUDGET_S = 20.0  # the send page waits this long, then the worker carries on
STALLED_TASK_EXPIRES_S = 600


class CampaignStateError(ValueError):
    """The campaign is not in a state that allows the action (someone else moved it)."""


# --- the send page ---------------------------------------------------------------------------


@dataclass
class RecipientsPreview:
    good: list[importing.GoodLine]
    bad: list[importing.BadLine]
    quota: Quota | None
    report_type: str

    @property
    def total_units(self) -> int:
        return sum(line.units for line in self.good)

    @property
    def quota_left(self) -> int | None:
        return None if self.quota is None else self.quota.left_for(self.report_type)

    @property
    def over_quota(self) -> bool:
        left = self.quota_left
        return left is not None and self.total_units > left


_NUMBER_SEPARATORS = re.compile(r"[,;，；\s]+")


def preview_recipients(
    template: Template, text: str, shared_values: list[str]
) -> RecipientsPreview:
    """Judge the recipients typed on the send page.

    With a template that takes variables: one recipient per line, `mobile,var1,...,var4`, as
    in an import file; a value left empty takes the one typed in the shared fields, so the
    same values can be given once for many numbers. Without variables: numbers separated by
    new lines, commas, semicolons or spaces.
    """
    judge = importing.LineJudge(template.content, template.temp_sign, template.sign_location)
    good: list[importing.GoodLine] = []
    bad: list[importing.BadLine] = []
    for line_number, fields in _recipient_lines(text, judge.variable_count):
        values = [
            (fields[index].strip() if index < len(fields) else "")
            or (shared_values[index - 1] if index - 1 < len(shared_values) else "")
            for index in range(1, judge.variable_count + 1)
        ]
        judged = judge.judge(line_number, [fields[0], *values, *fields[judge.variable_count + 1 :]])
        (good if isinstance(judged, importing.GoodLine) else bad).append(judged)
    return RecipientsPreview(
        good=good, bad=bad, quota=latest_quota(), report_type=template.report_type
    )


def _recipient_lines(text: str, variable_count: int) -> list[tuple[int, list[str]]]:
    lines: list[tuple[int, list[str]]] = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if variable_count == 0:
            numbers = [number for number in _NUMBER_SEPARATORS.split(line) if number]
            lines.extend((line_number, [number]) for number in numbers)
        else:
            lines.append((line_number, next(csv.reader([line]))))
    return lines


MAX_FORM_RECIPIENTS = MAX_NUMBERS_PER_SEND


def send_recipients(
    template: Template,
    lines: list[importing.GoodLine],
    user=None,  # type: ignore[no-untyped-def]
    source: str = CampaignSource.FORM,
    budget_s: float = SYNC_SEND_BUDGET_S,
) -> Campaign:
    """Store the recipients as a confirmed campaign and send it now, within `budget_s`.

    What is not finished within the budget (a slow or uncertain provider) is carried on by
    the worker, exactly as for an imported campaign.
    """
    campaign = store_recipients(template, lines, source=source, user=user)
    Campaign.objects.filter(pk=campaign.pk, state=CampaignState.DRAFT).update(
        state=CampaignState.QUEUED, confirmed_at=timezone.now(), confirmed_by=user
    )
    outcome = run_campaign(campaign.pk, budget_s=budget_s)
    if outcome.again or not outcome.claimed:
        enqueue_campaign(campaign.pk, countdown=outcome.countdown)
    campaign.refresh_from_db()
    return campaign


# --- campaign life cycle ---------------------------------------------------------------------


def enqueue_campaign(campaign_id: int, countdown: int = 0, expires: int | None = None) -> None:
    """Queue a send run once the current transaction commits."""
    from sms.tasks import send_campaign

    transaction.on_commit(
        lambda: send_campaign.apply_async(
            (campaign_id,), countdown=countdown or None, expires=expires
        )
    )


def confirm_campaign(campaign: Campaign, user=None) -> None:  # type: ignore[no-untyped-def]
    if campaign.total_numbers == 0:
        raise CampaignStateError("the campaign has no number to send to")
    with transaction.atomic():
        moved = Campaign.objects.filter(pk=campaign.pk, state=CampaignState.DRAFT).update(
            state=CampaignState.QUEUED, confirmed_at=timezone.now(), confirmed_by=user
        )
        if not moved:
            raise CampaignStateError("the campaign is no longer waiting for confirmation")
        enqueue_campaign(campaign.pk)


def discard_campaign(campaign: Campaign) -> None:
    """Drop a draft that staff do not want to send (its rows and its file)."""
    with transaction.atomic():
        locked = Campaign.objects.filter(pk=campaign.pk, state=CampaignState.DRAFT)
        if not locked.exists():
            raise CampaignStateError("only a campaign waiting for confirmation can be discarded")
        file_field = campaign.source_file
        locked.delete()
    if file_field:
        file_field.storage.delete(file_field.name)


def cancel_campaign(campaign: Campaign) -> int:
    """Stop a campaign: numbers not yet submitted are cancelled; returns how many."""
    with transaction.atomic():
        moved = Campaign.objects.filter(
            pk=campaign.pk,
            state__in=(CampaignState.QUEUED, CampaignState.SENDING, CampaignState.HALTED),
        ).update(state=CampaignState.CANCELLED, finished_at=timezone.now())
        if not moved:
            raise CampaignStateError("the campaign is not running")
        cancelled = Message.objects.filter(
            campaign_id=campaign.pk, status=MessageStatus.QUEUED
        ).update(status=MessageStatus.CANCELLED, status_changed_at=timezone.now())
        Campaign.objects.filter(pk=campaign.pk).update(cancelled_count=cancelled)
        # A run settles numbers whose submission was in doubt, and closes the chunks.
        enqueue_campaign(campaign.pk)
    return cancelled


def resume_campaign(campaign: Campaign) -> None:
    with transaction.atomic():
        moved = Campaign.objects.filter(pk=campaign.pk, state=CampaignState.HALTED).update(
            state=CampaignState.QUEUED, retries=0, confirmed_at=timezone.now()
        )
        if not moved:
            raise CampaignStateError("only a halted campaign can be resumed")
        enqueue_campaign(campaign.pk)


def resume_stalled_campaigns() -> list[int]:
    """Queue a run for every campaign whose worker died or whose task was lost."""
    stalled = stalled_campaigns()
    for campaign_id in stalled:
        # The sweep runs every minute: while no worker is up, let its tasks lapse rather
        # than pile up (the lease would make the extra ones no-ops anyway).
        enqueue_campaign(campaign_id, expires=STALLED_TASK_EXPIRES_S)
    return stalled


# --- figures ---------------------------------------------------------------------------------


def today_figures() -> dict[str, Any]:
    """Today's (local day) submitted, delivered and failed messages, and the quotas left."""
    start = timezone.make_aware(datetime.combine(timezone.localdate(), time.min))
    counts = Message.objects.filter(submitted_at__gte=start).aggregate(
        sent=Count("id", filter=Q(provider_message_id__isnull=False)),
        success=Count("id", filter=Q(status=MessageStatus.SUCCESS)),
        failed=Count("id", filter=Q(status=MessageStatus.FAILED)),
    )
    return {**counts, "quota": latest_quota()}
