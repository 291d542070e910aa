"""Sending a campaign chunk by chunk, so that a worker killed at any moment resumes without
sending any number twice.

The rules, in the order a run applies them:

1. Lease. A run first takes the campaign's lease with a conditional update (free or expired
   only) and renews it before every provider call; a run that loses it stops. Two workers
   therefore never send the same campaign at once, and a dead worker's lease runs out. In a
   worker the lease is short and a thread renews it meanwhile (`campaign_lease.LeaseKeeper`),
   so a killed worker's campaign goes on within about 25 s (campaign_lease).
2. Chunks in order. A chunk (at most 1000 numbers) is marked `sending` before its first call
   and `sent` once every number in it has a result; the next chunk starts only then.
3. Intent before the call. The numbers of one call (those of the chunk that share the same
   variable values, since a call carries one `vars` for all its numbers) are marked
   `submitting` before the call; the per-number answers are written in one transaction right
   after it, with the campaign's counters. Up to SMS_SEND_CONCURRENCY calls of a chunk are
   out at once (calls_in_flight.py); each is marked before it goes and recorded after, in the
   run's own thread, so this rule holds for each of them.
4. Reconciliation. A `submitting` message found by a later run (the worker died during the
   call, or the answer was lost or uncertain) is looked up in the provider's delivery report,
   newest first, back to its `submitted_at - RECONCILE_SKEW` (clocks differ): by its mobile
   number when few are in doubt, else by one pass over the whole report. A record with the
   campaign's template number, for that mobile, that none of our messages holds yet is taken
   as this message (the oldest such record in the window). Found: the message takes that
   record's id and status. Not found, and the call was made more than the grace period ago
   (`sms.services.timing.reconcile_grace`, several call lengths: a call we gave up on may still be
   worked on by the provider, and its numbers reach the report only then): the provider never
   accepted it, and it goes back to `queued` to be sent again. Not found within the grace
   period: nothing is decided, and the run stops until the grace period is over. The content
   is not compared, because an edited template changes it.
5. Refusals. A 4xx refusal of the whole call (template under review, quota exhausted, bad
   credentials...) is certain: the numbers go back to `queued` and the campaign is `halted`
   with the code, for staff to resume. A 5xx or a transport failure is uncertain: the numbers
   stay `submitting`, and the next run reconciles them first.
6. Failures and backoff. An uncertain answer, missing provider settings or any unexpected
   error is stored on the campaign (`halt_code`, `halt_detail`, shown to staff) and counted in
   `retries`; the run keeps the lease until its backoff is over, so that nothing (not the
   stalled-campaign sweep, not a duplicate task) runs the campaign sooner. After
   MAX_UNCERTAIN_RETRIES failed runs in a row, or at once when the provider is not configured,
   the campaign halts for staff.
7. Quiet hours. Before each call, a campaign bound by the marketing sending window
   (`sms.services.scheduling`) checks it; outside it the run stops before the call, and the
   campaign moves `sending -> waiting` with the window's next opening as `resume_at`, for
   beat to queue it again then. Numbers already sent stay sent; the next run carries on with
   the queued ones, as after a time budget.
8. Cancel wins. Staff may cancel while a run is in a call. Every transition a run makes to a
   live state is conditional on `state = sending`, so a cancelled campaign never turns into
   `halted` (which could be resumed), and numbers a run puts back in the queue after the cancel
   are cancelled by the campaign's next run.
9. Suppression. Before a chunk's numbers are sent, those on the suppression list (for a
   template that respects it) are cancelled with the code `SUPPRESSED`, in one update: the
   import and the send page set them aside already; this catches numbers put on the list
   between the check and the send.
"""

from __future__ import annotations

import logging
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import DatabaseError, transaction
from django.db.models import F
from django.utils import timezone

from backoffice.operations.provider import ProviderNotConfigured
from sms import client as api
from sms import errors
from sms.models import (
    Campaign,
    CampaignState,
    Chunk,
    ChunkState,
    Message,
    MessageStatus,
)
from sms.services import run_stops as stops
from sms.services import suppression
from sms.services.bulk import SendOutcome, mark_submitting, record_outcomes
from sms.services.calls_in_flight import Call, CallsInFlight, Finished, Throttle, concurrency
from sms.services.campaign_lease import LeaseKeeper, claim, release, run_lease, watched
from sms.services.campaign_reconcile import Reconciliation
from sms.services.connection import sms_client
from sms.services.scheduling import bound_by_window, window_opens_at
from sms.services.timing import lease_duration
from sms.verbatim import fit_code

logger = logging.getLogger(__name__)

RUN_BUDGET_S = 50.0  # a run stops after this and queues the next, to keep tasks short
MAX_UNCERTAIN_RETRIES = 12  # consecutive failed runs before staff are asked
MAX_COUNTDOWN_S = 600  # far below the broker's visibility timeout (one hour)
MAX_RETRIES_KEPT = 10_000  # the counter of a cancelled campaign retrying for months stops here
# Codes of our own for `halt_code` (the provider's codes are upper case words as well).
NOT_CONFIGURED = "PROVIDER_NOT_CONFIGURED"
UNEXPECTED_ERROR = "UNEXPECTED_ERROR"
LOCAL_CHECK = "LOCAL_CHECK"


@dataclass(frozen=True)
class RunOutcome:
    """What a run did and whether another run is needed (and after how many seconds)."""

    state: str
    again: bool = False
    countdown: int = 0
    claimed: bool = True


def cancel_queued(campaign_id: int) -> int:
    """Cancel the campaign's numbers still waiting to be sent; returns how many."""
    with transaction.atomic():
        changed = Message.objects.filter(
            campaign_id=campaign_id, status=MessageStatus.QUEUED
        ).update(status=MessageStatus.CANCELLED, status_changed_at=timezone.now())
        if changed:
            Campaign.objects.filter(pk=campaign_id).update(
                cancelled_count=F("cancelled_count") + changed
            )
    return changed


class CampaignRun(Reconciliation):
    """One run over a claimed campaign. Use `run_campaign()`."""

    def __init__(
        self,
        campaign_id: int,
        token: str,
        client: api.SmsClient,
        budget_s: float = RUN_BUDGET_S,
        clock: Callable[[], float] = time.monotonic,
        lease: timedelta | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.campaign_id = campaign_id
        self.token = token
        self.lease = lease or lease_duration()
        self.client = client
        self.clock = clock
        self.deadline = clock() + budget_s
        self.campaign = Campaign.objects.select_related("template").get(pk=campaign_id)
        self.bound_by_window = bound_by_window(self.campaign)
        self.throttle = Throttle(concurrency(), clock=clock)
        self.sleep = sleep

    # lease ------------------------------------------------------------------------------

    def renew(self) -> None:
        """Extend the lease; a cancelled or taken-over campaign stops the run here."""
        state = self.campaign.state
        renewed = Campaign.objects.filter(
            pk=self.campaign_id, lease_owner=self.token, state=state
        ).update(lease_expires_at=timezone.now() + self.lease)
        if not renewed:
            raise stops.LeaseLost

    # the run ----------------------------------------------------------------------------

    def execute(self) -> RunOutcome:
        cancelled = self.campaign.state == CampaignState.CANCELLED
        if cancelled:
            # A run that raced the cancel may have put numbers back in the queue after the
            # cancel had emptied it (rule 8).
            cancel_queued(self.campaign_id)
        for chunk in self._open_chunks():
            if self.clock() > self.deadline:
                return RunOutcome(self.campaign.state, again=True)
            if chunk.state == ChunkState.SENDING:
                self.reconcile(chunk, cancelled=cancelled)
            if cancelled:
                self._close_chunk(chunk)
                continue
            if chunk.state == ChunkState.PENDING:
                Chunk.objects.filter(pk=chunk.pk, state=ChunkState.PENDING).update(
                    state=ChunkState.SENDING, started_at=timezone.now()
                )
            self.send_chunk(chunk)
            self._close_chunk(chunk)
        if not cancelled:
            Campaign.objects.filter(
                pk=self.campaign_id, lease_owner=self.token, state=CampaignState.SENDING
            ).update(
                state=CampaignState.DONE,
                finished_at=timezone.now(),
                halt_code="",
                halt_detail="",
                retries=0,
            )
        return RunOutcome(CampaignState.CANCELLED if cancelled else CampaignState.DONE)

    def _open_chunks(self) -> list[Chunk]:
        return list(
            Chunk.objects.filter(campaign_id=self.campaign_id)
            .exclude(state=ChunkState.SENT)
            .order_by("number")
        )

    def _close_chunk(self, chunk: Chunk) -> None:
        Chunk.objects.filter(pk=chunk.pk).exclude(state=ChunkState.SENT).update(
            state=ChunkState.SENT, finished_at=timezone.now()
        )

    # sending ----------------------------------------------------------------------------

    def send_chunk(self, chunk: Chunk) -> None:
        """Send the chunk's queued numbers, one call per distinct set of variable values, with
        up to SMS_SEND_CONCURRENCY calls in flight (calls_in_flight.py). Every call is
        marked before it goes and recorded after, here; when one call stops the run (a
        refusal, an uncertain answer, the budget, the window, the lease), no new call goes and
        the answers of those already out are recorded first."""
        if suppression.applies_to(self.campaign.template):
            suppression.cancel_suppressed(self.campaign_id, chunk.pk)
        queued = (
            Message.objects.filter(chunk_id=chunk.pk, status=MessageStatus.QUEUED)
            .order_by("id")
            .values_list("id", "mobile", "vars")
        )
        groups: dict[str, list[tuple[int, str]]] = {}
        for message_id, mobile, joined_values in queued:
            groups.setdefault(joined_values, []).append((message_id, mobile))
        work = deque((joined.split("|") if joined else [], members)
                     for joined, members in groups.items())
        template_id = self.campaign.template.provider_id
        stop: Exception | None = None
        with CallsInFlight[list[tuple[int, str]]](
                lambda mobiles, values: self.client.send(template_id, mobiles, values),
                self.throttle) as flight:
            while True:
                for done in flight.finished(0):
                    stop = _graver(stop, self._settle(done, work))
                wait_s: float | None = None  # how long to wait for a call to finish
                if stop is None and work and flight.has_room():
                    pause_s = self.throttle.wait_s()
                    if not pause_s:
                        stop = self._send_next(chunk, work, flight)
                        continue
                    if not flight.busy:
                        stop = self._pause_for(pause_s)
                        continue
                    wait_s = pause_s  # a call may finish before the pause ends
                if not flight.busy:
                    break  # nothing out, and nothing more to send (or the run stops)
                for done in flight.finished(wait_s):
                    stop = _graver(stop, self._settle(done, work))
        if stop is not None:
            raise stop

    def _send_next(self, chunk: Chunk, work: deque[tuple[list[str], list[tuple[int, str]]]],
                   flight: CallsInFlight[list[tuple[int, str]]]) -> Exception | None:
        """Mark the next group and put its call in flight; the reason to stop, if any."""
        try:
            self._before_call()
            values, members = work.popleft()
            marked = self._mark(chunk, members)
        except (stops.OutOfTime, stops.WindowClosed, stops.LeaseLost) as reason:
            return reason
        if marked:
            flight.submit(Call(marked, [mobile for _id, mobile in marked], values))
        return None

    def _before_call(self) -> None:
        if self.clock() > self.deadline:
            # The chunk stays `sending` with queued numbers; the next run sends them.
            raise stops.OutOfTime
        if self.bound_by_window:
            opens_at = window_opens_at()
            if opens_at is not None:
                # As after the time budget: the queued numbers wait for the next run.
                raise stops.WindowClosed(opens_at)

    def _pause_for(self, pause_s: float) -> Exception | None:
        """Wait out a 429's pause here, or, when it outlasts the run's budget, end the run and
        let the next one start after it."""
        if self.clock() + pause_s > self.deadline:
            return stops.WaitForProvider(timezone.now() + timedelta(seconds=pause_s))
        self.sleep(pause_s)
        return None

    def _mark(self, chunk: Chunk, members: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """Renew the lease and mark the numbers `submitting`, in one transaction: one commit
        (one WAL flush) instead of two, which is much of the cost of a one-number call. Staff
        may have cancelled some numbers meanwhile: only those marked are sent."""
        ids = [message_id for message_id, _mobile in members]
        with transaction.atomic():
            self.renew()
            marked = mark_submitting(chunk.pk, ids, timezone.now())
        return [(message_id, mobile) for message_id, mobile in members if message_id in marked]

    def _settle(self, done: Finished[list[tuple[int, str]]],
                work: deque[tuple[list[str], list[tuple[int, str]]]]) -> Exception | None:
        """Record a finished call; what it means for the run when it failed (rule 5)."""
        members = done.call.key
        ids = [message_id for message_id, _mobile in members]
        error = done.error
        if error is None:
            self._record(members, done.results or [])
            return None
        if isinstance(error, errors.RateLimitedError):
            # Not taken: the same numbers go again, first, once the pause is over.
            self._unmark(ids)
            work.appendleft((done.call.values, members))
            self.throttle.rate_limited(error.retry_after_s)
            return None
        if isinstance(error, errors.SmsError):
            if error.outcome_uncertain:
                return stops.Uncertain(error)
            self._unmark(ids)
            code = getattr(error, "code", "") or type(error).__name__
            return stops.Halt(code, getattr(error, "message", "") or str(error))
        if isinstance(error, (ValueError, TypeError)):
            # A value the client refuses before any request: certain, and needs a person.
            self._unmark(ids)
            return stops.Halt(LOCAL_CHECK, str(error))
        return error if isinstance(error, Exception) else RuntimeError(str(error))

    def _unmark(self, ids: list[int]) -> None:
        Message.objects.filter(pk__in=ids, status=MessageStatus.SUBMITTING).update(
            status=MessageStatus.QUEUED, submitted_at=None
        )

    def _record(self, members: list[tuple[int, str]], results: list[api.SendResult]) -> None:
        """Write each number's answer; results come back in the order the numbers went."""
        now = timezone.now()
        outcomes: list[SendOutcome] = []
        accepted = rejected = 0
        for (message_id, _mobile), result in zip(members, results, strict=True):
            if result.accepted:
                accepted += 1
                outcomes.append(
                    SendOutcome(message_id, MessageStatus.PROCESSING, result.message_id, "")
                )
            else:
                rejected += 1
                outcomes.append(
                    SendOutcome(
                        message_id,
                        MessageStatus.REJECTED,
                        None,
                        fit_code(result.error_code or "", "error code"),
                    )
                )
        with transaction.atomic():
            record_outcomes(outcomes, now)
            Campaign.objects.filter(pk=self.campaign_id).update(
                accepted_count=F("accepted_count") + accepted,
                rejected_count=F("rejected_count") + rejected,
                retries=0,
            )

def _graver(current: Exception | None, found: Exception | None) -> Exception | None:
    """The reason a run stops when several calls end it: the first, unless a later one is a
    refusal, which needs staff whatever else happened."""
    if current is None or (isinstance(found, stops.Halt)
                           and not isinstance(current, stops.Halt)):
        return found or current
    return current


def _backoff(retries: int) -> int:
    return min(MAX_COUNTDOWN_S, 15 * (1 << min(retries, 6)))  # 15 s doubling, int-typed


def _state_of(campaign_id: int) -> str:
    return Campaign.objects.filter(pk=campaign_id).values_list("state", flat=True).first() or ""


def run_campaign(
    campaign_id: int, budget_s: float = RUN_BUDGET_S, client: api.SmsClient | None = None
) -> RunOutcome:
    """Send (or reconcile) what is left of a campaign, within a time budget.

    Safe to call any number of times, from any number of workers: the lease makes all but
    one return at once with `claimed=False`. Never raises for a failure of the run itself:
    the failure is stored on the campaign and the outcome says when to try again.
    """
    is_watched = watched()
    lease = run_lease(is_watched)
    token = claim(campaign_id, lease)
    if token is None:
        return RunOutcome(_state_of(campaign_id), claimed=False)
    resume_at: datetime | None = None
    try:
        if is_watched:
            # Renewed until the run ends, or until it overruns its budget by the longest a
            # call may last (then a stuck run loses the lease, as a dead one does).
            limit_s = budget_s + lease_duration().total_seconds()
            with LeaseKeeper(campaign_id, token, limit_s, lease):
                outcome = _run_claimed(campaign_id, token, client, budget_s, lease)
        else:
            outcome = _run_claimed(campaign_id, token, client, budget_s, lease)
        if outcome.again and outcome.countdown:
            resume_at = timezone.now() + timedelta(seconds=outcome.countdown)
        return outcome
    finally:
        # Kept until the backoff is over (rule 6); free at once otherwise.
        release(campaign_id, token, until=resume_at)


def _run_claimed(
    campaign_id: int, token: str, client: api.SmsClient | None, budget_s: float,
    lease: timedelta,
) -> RunOutcome:
    try:
        run = CampaignRun(campaign_id, token, client or sms_client(), budget_s, lease=lease)
        return run.execute()
    except stops.OutOfTime:
        return RunOutcome(CampaignState.SENDING, again=True)
    except stops.LeaseLost:
        state = _state_of(campaign_id)
        # Stopped by a cancel: the next run settles what is left and closes the chunks.
        return RunOutcome(state, again=state == CampaignState.CANCELLED)
    except stops.WaitForProvider as wait:
        seconds = math.ceil((wait.until - timezone.now()).total_seconds())
        return RunOutcome(
            _state_of(campaign_id), again=True, countdown=min(MAX_COUNTDOWN_S, max(1, seconds))
        )
    except stops.WindowClosed as closed:
        return _pause(campaign_id, token, closed.opens_at)
    except stops.Halt as halt:
        return _after_refusal(campaign_id, token, halt)
    except stops.Uncertain as uncertain:
        error = uncertain.error
        logger.warning("campaign %s: uncertain provider answer: %s", campaign_id, error)
        code = getattr(error, "code", "") or type(error).__name__
        return _after_failure(campaign_id, token, code, str(error))
    except ProviderNotConfigured as error:
        logger.error("campaign %s: %s", campaign_id, error)
        return _after_failure(campaign_id, token, NOT_CONFIGURED, str(error), halt_now=True)
    except Exception as error:
        # A bug, a database error, anything: never leave the campaign silently "sending".
        logger.exception("campaign %s: the run failed", campaign_id)
        detail = f"{type(error).__name__}: {error}"
        return _after_failure(campaign_id, token, UNEXPECTED_ERROR, detail)


def _pause(campaign_id: int, token: str, opens_at: datetime) -> RunOutcome:
    """sending -> waiting until the window opens (rule 7); a cancel that landed meanwhile wins."""
    paused = Campaign.objects.filter(
        pk=campaign_id, lease_owner=token, state=CampaignState.SENDING
    ).update(state=CampaignState.WAITING, resume_at=opens_at)
    if paused:
        logger.info("campaign %s waits for the sending window (%s)", campaign_id, opens_at)
        return RunOutcome(CampaignState.WAITING)
    state = _state_of(campaign_id)
    return RunOutcome(state, again=state == CampaignState.CANCELLED)


def _after_refusal(campaign_id: int, token: str, halt: stops.Halt) -> RunOutcome:
    """A certain refusal halts a sending campaign for staff (rule 5). If staff cancelled it
    while the refused call was out, it stays cancelled and the numbers of that call, back in
    the queue, are cancelled with the rest (rule 8)."""
    logger.warning("campaign %s halted: %s", campaign_id, halt)
    halted = Campaign.objects.filter(
        pk=campaign_id, lease_owner=token, state=CampaignState.SENDING
    ).update(state=CampaignState.HALTED, halt_code=halt.code[:40], halt_detail=halt.detail[:500])
    if halted:
        return RunOutcome(CampaignState.HALTED)
    state = _state_of(campaign_id)
    if state == CampaignState.CANCELLED:
        cancel_queued(campaign_id)
        return RunOutcome(state, again=True)  # the next run closes the chunks
    return RunOutcome(state)


def _after_failure(
    campaign_id: int, token: str, code: str, detail: str, halt_now: bool = False
) -> RunOutcome:
    """Store and count a failed run; halt after the limit, or at once with `halt_now` (rule 6).

    Only a campaign still `sending` halts: a cancelled one stays cancelled and keeps retrying
    (at most every MAX_COUNTDOWN_S), since its numbers in doubt still need the report.
    """
    code, detail = code[:40], detail[:500]
    try:
        campaign = Campaign.objects.only("state", "retries").get(pk=campaign_id)
        retries = min(campaign.retries + 1, MAX_RETRIES_KEPT)
        if halt_now or retries > MAX_UNCERTAIN_RETRIES:
            halted = Campaign.objects.filter(
                pk=campaign_id, lease_owner=token, state=CampaignState.SENDING
            ).update(
                state=CampaignState.HALTED, halt_code=code, halt_detail=detail, retries=retries
            )
            if halted:
                return RunOutcome(CampaignState.HALTED)
        Campaign.objects.filter(pk=campaign_id, lease_owner=token).update(
            halt_code=code, halt_detail=detail, retries=retries
        )
    except DatabaseError:
        # The database itself may be what failed: try again later, as late as we ever do.
        logger.exception("campaign %s: could not record the failure %s", campaign_id, code)
        return RunOutcome(CampaignState.SENDING, again=True, countdown=MAX_COUNTDOWN_S)
    return RunOutcome(campaign.state, again=True, countdown=_backoff(retries))
