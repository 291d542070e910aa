"""A campaign's life: the send page's preview, confirmation (now or at a chosen time),
reschedule, the start of scheduled and waiting campaigns, cancel, resume and clean-up.

Every move is a conditional update, so a double click or a second tab changes nothing twice;
the send runs themselves are queued for the worker through `backoffice.operations.queue.enqueue`.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from backoffice.annotations import StaffUser
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.operations.queue import enqueue
from backoffice.security.audit import audited, record
from sms.client import MAX_NUMBERS_PER_SEND
from sms.models import (
    CANCELLABLE_STATES,
    Campaign,
    CampaignSource,
    CampaignState,
    Quota,
    Template,
)
from sms.services import importing, suppression
from sms.services.campaign_lease import stalled_campaigns
from sms.services.campaign_store import store_recipients
from sms.services.campaigns import cancel_queued, run_campaign
from sms.services.connection import latest_quota, sms_client
from sms.services.counts import today_counts
from sms.services.scheduling import OVERRIDE_PERMISSION, check_start_time
from sms.services.words import listed_words

SYNC_SEND_BUDGET_S = 20.0  # the send page waits this long, then the worker carries on
STALLED_TASK_EXPIRES_S = 60  # the sweep queues it again 10 s later anyway
# A draft of the send page or the command line that nobody confirmed is dropped after this.
# Import drafts stay until staff discard them: they carry a file and its report.
STALE_DRAFT_AGE = timedelta(days=1)


class CampaignStateError(ValueError):
    """The campaign is not in a state that allows the action (someone else moved it)."""


class WindowOverrideNotAllowed(PermissionError):
    """Only staff with `sms.override_quiet_hours` may lift the sending window."""


# --- the send page ---------------------------------------------------------------------------


@dataclass
class RecipientsPreview:
    good: list[importing.GoodLine]
    bad: list[importing.BadLine]
    quota: Quota | None
    report_type: str
    # Good lines whose number is on the suppression list: set aside, never stored to send.
    suppressed: list[importing.BadLine] = field(default_factory=list)

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
    judge = importing.LineJudge(template.content, template.temp_sign, template.sign_location,
                                blocked_words=listed_words())
    good: list[importing.GoodLine] = []
    bad: list[importing.BadLine] = []
    for line_number, fields in _recipient_lines(text, judge.variable_count):
        values = [
            (fields[index].strip() if index < len(fields) else "")
            or (shared_values[index - 1] if index - 1 < len(shared_values) else "")
            for index in range(1, judge.variable_count + 1)
        ]
        judged = judge.judge(line_number, [fields[0], *values, *fields[judge.variable_count + 1 :]])
        if isinstance(judged, importing.GoodLine):
            good.append(judged)
        else:
            bad.append(judged)
    good, suppressed = suppression.split_suppressed(template, good)
    return RecipientsPreview(
        good=good,
        bad=bad,
        quota=latest_quota(),
        report_type=template.report_type,
        suppressed=suppressed,
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


def same_recipients(
    campaign: Campaign, template: Template, lines: list[importing.GoodLine]
) -> bool:
    """Whether the draft holds exactly these recipients and values, for this template."""
    if campaign.template_id != template.pk:
        return False
    stored = list(campaign.messages.order_by("id").values_list("mobile", "vars"))
    return stored == [(line.mobile, "|".join(line.variables)) for line in lines]


def send_draft(
    campaign: Campaign,
    user: StaffUser | None = None,
    budget_s: float = SYNC_SEND_BUDGET_S,
    start_at: datetime | None = None,
    override_window: bool = False,
) -> Campaign:
    """Confirm a draft and send it now, within `budget_s`; the worker carries on the rest.
    With `start_at` it is only scheduled: beat starts it then (`start_due_campaigns`).

    Exactly once: the draft is confirmed with a conditional update, so a second confirmation
    (a double click, a reload) raises CampaignStateError and sends nothing. Once confirmed the
    campaign is in the worker's hands whatever happens here: without provider settings in
    this process it is left to the worker (which has its own settings, and halts the campaign
    with the reason if it lacks them too), so that no caller reports a failure for a campaign
    that will be sent.
    """
    if start_at is not None:
        confirm_campaign(campaign, user, start_at=start_at, override_window=override_window)
        campaign.refresh_from_db()
        return campaign
    _confirm_to_send_now(campaign, user, override_window=override_window)
    try:
        client = sms_client()
    except ProviderNotConfigured:
        enqueue_campaign(campaign.pk)
    else:
        outcome = run_campaign(campaign.pk, budget_s=budget_s, client=client)
        if outcome.again or not outcome.claimed:
            enqueue_campaign(campaign.pk, countdown=outcome.countdown)
    campaign.refresh_from_db()
    return campaign


def send_recipients(
    template: Template,
    lines: list[importing.GoodLine],
    user: StaffUser | None = None,
    source: str = CampaignSource.FORM,
    budget_s: float = SYNC_SEND_BUDGET_S,
    start_at: datetime | None = None,
    override_window: bool = False,
) -> Campaign:
    """Store the recipients as a campaign and send it at once, or at `start_at` (see
    `send_draft`)."""
    campaign = store_recipients(template, lines, source=source, user=user)
    return send_draft(campaign, user, budget_s, start_at, override_window)


# --- campaign life cycle ---------------------------------------------------------------------


def enqueue_campaign(campaign_id: int, countdown: int = 0, expires: int | None = None) -> None:
    """Queue a send run once the current transaction commits."""
    enqueue("sms.tasks.send_campaign", campaign_id, countdown=countdown, expires=expires)


def _confirm_draft(
    campaign: Campaign,
    user: StaffUser | None = None,
    start_at: datetime | None = None,
    override_window: bool = False,
) -> None:
    """draft -> queued (or scheduled, with `start_at`), once: raises CampaignStateError if it
    is no longer a draft."""
    if campaign.total_numbers == 0:
        raise CampaignStateError("the campaign has no number to send to")
    if start_at is not None:
        check_start_time(start_at)
    now = timezone.now()
    changes: dict[str, Any] = {"confirmed_at": now, "confirmed_by": user}
    if start_at is None:
        changes["state"] = CampaignState.QUEUED
    else:
        changes.update(state=CampaignState.SCHEDULED, scheduled_at=start_at)
    if override_window:
        if user is None or not user.has_perm(OVERRIDE_PERMISSION):
            raise WindowOverrideNotAllowed("lifting the sending window needs the permission")
        changes.update(window_override_by=user, window_override_at=now)
    moved = Campaign.objects.filter(pk=campaign.pk, state=CampaignState.DRAFT).update(**changes)
    if not moved:
        raise CampaignStateError("the campaign is no longer waiting for confirmation")
    if override_window:
        record(
            "sms",
            "campaign.window_override",
            target=campaign,
            summary=f"campaign {campaign.pk} may send outside the marketing sending window",
            user=user,
        )


def _confirm_summary(
    campaign: Campaign,
    user: StaffUser | None = None,
    start_at: datetime | None = None,
    override_window: bool = False,
) -> tuple[Campaign, str]:
    """The audit entry of `confirm_campaign` (same arguments): the campaign, its count and,
    when scheduled, its start."""
    summary = f"campaign {campaign.pk}, {campaign.total_numbers} numbers"
    if start_at is not None:
        summary += f", scheduled for {start_at.isoformat()}"
    return campaign, summary


@audited("sms", "campaign.confirm", lambda campaign, user=None, override_window=False: (
    campaign, f"campaign {campaign.pk}, {campaign.total_numbers} numbers, sent now"))
def _confirm_to_send_now(
    campaign: Campaign, user: StaffUser | None = None, override_window: bool = False
) -> None:
    """"Send now" (the send page, `sms_send`): confirmed here, sent by the caller at once; audited
    as `confirm_campaign` is, the lifted window included (`_confirm_draft` records it)."""
    _confirm_draft(campaign, user, override_window=override_window)


@audited("sms", "campaign.confirm", _confirm_summary)
def confirm_campaign(
    campaign: Campaign,
    user: StaffUser | None = None,
    start_at: datetime | None = None,
    override_window: bool = False,
) -> None:
    """Confirm a draft for the worker to send now, or for beat to start at `start_at`.

    `override_window` lets this marketing campaign send outside the sending window; it needs
    `sms.override_quiet_hours` and is written to the audit log.
    """
    with transaction.atomic():
        _confirm_draft(campaign, user, start_at, override_window)
        if start_at is None:
            enqueue_campaign(campaign.pk)


@audited("sms", "campaign.reschedule", lambda campaign, start_at: (
    campaign, f"campaign {campaign.pk} moved to {start_at.isoformat()}"))
def reschedule_campaign(campaign: Campaign, start_at: datetime) -> None:
    """Move the start of a scheduled campaign; CampaignStateError once it has started."""
    check_start_time(start_at)
    moved = Campaign.objects.filter(pk=campaign.pk, state=CampaignState.SCHEDULED).update(
        scheduled_at=start_at
    )
    if not moved:
        raise CampaignStateError("the campaign is no longer scheduled")


def start_due_campaigns(now: datetime | None = None) -> list[int]:
    """Beat job: queue every scheduled campaign whose time has come, and every waiting one
    whose sending window has opened; returns their ids.

    Each start is a conditional update (scheduled or waiting, and due, -> queued), so with two
    beats, a repeated task, or a reschedule or cancel racing it, exactly one caller moves a
    campaign and queues its send; the others see no row changed and do nothing.
    """
    now = now or timezone.now()
    started = _queue_each(
        Q(state=CampaignState.SCHEDULED, scheduled_at__lte=now),
        lambda campaign_id: record(
            "sms", "campaign.start", target=campaign_id,
            summary=f"scheduled campaign {campaign_id} started",
        ),
    )
    # resume_at is kept on the way back to queued: the stalled sweep reads it.
    started += _queue_each(
        Q(state=CampaignState.WAITING, resume_at__lte=now),
        lambda campaign_id: record(
            "sms", "campaign.start", target=campaign_id,
            summary=f"waiting campaign {campaign_id} goes on: the sending window opened",
        ),
    )
    return started


def _queue_each(due: Q, on_start: Callable[[int], object] | None = None) -> list[int]:
    """Move each campaign matching `due` to queued and queue its send; the ids moved.

    One transaction per campaign, and `due` is tested again by the update itself, so a
    campaign that another caller started (or staff rescheduled or cancelled) in between is
    left alone; `on_start` runs in the same transaction as the move, and the send is queued
    only once it commits.
    """
    started: list[int] = []
    for campaign_id in Campaign.objects.filter(due).values_list("id", flat=True):
        with transaction.atomic():
            moved = Campaign.objects.filter(due, pk=campaign_id).update(
                state=CampaignState.QUEUED
            )
            if moved:
                if on_start is not None:
                    on_start(campaign_id)
                enqueue_campaign(campaign_id)
                started.append(campaign_id)
    return started


def next_scheduled_campaign() -> Campaign | None:
    """The scheduled campaign that starts first, for the dashboard."""
    return (
        Campaign.objects.filter(state=CampaignState.SCHEDULED)
        .order_by("scheduled_at", "id")
        .first()
    )


def drop_draft(campaign_id: int) -> bool:
    """Delete the campaign (its rows with it) if it is still a draft; False otherwise.

    The row is locked first: the ORM's delete reads the rows to cascade to and then deletes by
    primary key, so a confirmation landing in between would otherwise be deleted with it.
    """
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().filter(
            pk=campaign_id, state=CampaignState.DRAFT
        )
        if not list(locked.values_list("pk", flat=True)):
            return False
        locked.delete()
    return True


def redraft_recipients(
    previous_id: int | None,
    template: Template,
    lines: list[importing.GoodLine] | None,
    user: StaffUser | None = None,
) -> Campaign | None:
    """The send page's preview: the page's previous draft (if still a draft) gives way to the
    newly judged recipients, in one transaction, so a draft is only ever sent as previewed and
    the page never holds two. `lines` None: nothing may be offered, so no new draft."""
    with transaction.atomic():
        if previous_id is not None:
            drop_draft(previous_id)
        if lines is None:
            return None
        return store_recipients(template, lines, user=user)


def discard_campaign(campaign: Campaign) -> None:
    """Drop a draft that staff do not want to send (its rows and its file)."""
    file_field = campaign.source_file
    if not drop_draft(campaign.pk):
        raise CampaignStateError("only a campaign waiting for confirmation can be discarded")
    if file_field:
        file_field.storage.delete(file_field.name)


@audited("sms", "campaign.cancel", lambda campaign: (campaign, f"campaign {campaign.pk}"))
def cancel_campaign(campaign: Campaign) -> int:
    """Stop a campaign: numbers not yet submitted are cancelled; returns how many."""
    with transaction.atomic():
        moved = Campaign.objects.filter(pk=campaign.pk, state__in=CANCELLABLE_STATES).update(
            state=CampaignState.CANCELLED, finished_at=timezone.now(), resume_at=None
        )
        if not moved:
            raise CampaignStateError("the campaign is not running")
        cancelled = cancel_queued(campaign.pk)
        # A run settles numbers whose submission was in doubt, and closes the chunks.
        enqueue_campaign(campaign.pk)
    return cancelled


@audited("sms", "campaign.resume", lambda campaign: (campaign, f"campaign {campaign.pk}"))
def resume_campaign(campaign: Campaign) -> None:
    with transaction.atomic():
        moved = Campaign.objects.filter(pk=campaign.pk, state=CampaignState.HALTED).update(
            state=CampaignState.QUEUED, retries=0, confirmed_at=timezone.now()
        )
        if not moved:
            raise CampaignStateError("only a halted campaign can be resumed")
        enqueue_campaign(campaign.pk)


def discard_stale_drafts(now: datetime | None = None) -> int:
    """Drop drafts of the send page and the command line left unconfirmed for a day; returns
    how many. A draft confirmed meanwhile is no longer a draft and is not touched."""
    cutoff = (now or timezone.now()) - STALE_DRAFT_AGE
    stale = Campaign.objects.filter(
        state=CampaignState.DRAFT,
        source__in=(CampaignSource.FORM, CampaignSource.COMMAND),
        created_at__lt=cutoff,
    )
    return sum(drop_draft(campaign_id) for campaign_id in stale.values_list("id", flat=True))


def resume_stalled_campaigns() -> list[int]:
    """Queue a run for every campaign whose worker died or whose task was lost."""
    stalled = stalled_campaigns()
    for campaign_id in stalled:
        # The sweep runs every 10 s: while no worker is up, let its tasks lapse rather
        # than pile up (the lease would make the extra ones no-ops anyway).
        enqueue_campaign(campaign_id, expires=STALLED_TASK_EXPIRES_S)
    return stalled


# --- figures ---------------------------------------------------------------------------------


def today_figures() -> dict[str, Any]:
    """Today's (local day) sent, delivered and failed messages (at most a minute old), and
    the quotas left."""
    return {**today_counts(), "quota": latest_quota()}
