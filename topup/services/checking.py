"""Asking the provider about open orders (seekOrder) and acting on what it says.

Every order that is not final is queried on a schedule that backs off per order, and all queries
pause together when the provider answers 510 (queries too frequent). An order whose chargeOrder
answer was lost is only sent again once the provider has confirmed, twice and after a grace
period, that it never received it; the same custno is reused, so a late arrival is refused (512)
rather than charged twice.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from backoffice.operations import soft_cache
from topup.client import SeekResult, TopupError
from topup.conf import knob
from topup.models import EventKind, Order, OrderState
from topup.rules import OrderOutcome, Remedy, format_requesttime
from topup.services.connection import build_client
from topup.services.ordering import resubmit_lost_order
from topup.services.statemachine import log, move

logger = logging.getLogger(__name__)

S = OrderState
CHECKED_STATES = (S.SUBMITTED, S.PENDING, S.UNKNOWN, S.MANUAL)
PAUSE_KEY = "topup:seek_pause"
# Codes of our own chargeOrder after which a 516 contradicts the provider (it knew the custno).
ACKNOWLEDGED_CHARGE_CODES = frozenset({"200", "410", "511", "512"})


# --- pacing ---------------------------------------------------------------------------------


def backoff_delay(attempts: int, first_s: int | None = None) -> timedelta:
    """first, 2x, 4x ... capped at TOPUP_CHECK_MAX_INTERVAL_S."""
    first = knob("TOPUP_FIRST_CHECK_S") if first_s is None else first_s
    cap = knob("TOPUP_CHECK_MAX_INTERVAL_S")
    return timedelta(seconds=min(cap, first * 2 ** min(attempts, 20)))


def seek_paused_until() -> datetime | None:
    """While the provider says 510, every query waits until this moment. Kept in the cache
    only: while the cache is down there is no pause, and a new 510 (not kept either) sends
    the order back to its own backoff, so queries stay paced per order."""
    pause: dict[str, datetime] | None = soft_cache.read(PAUSE_KEY)
    if pause and pause["until"] > timezone.now():
        return pause["until"]
    return None


def _pause_after_510() -> datetime:
    pause = soft_cache.read(PAUSE_KEY) or {"streak": 0}
    streak = pause["streak"] + 1
    seconds = min(knob("TOPUP_BACK_OFF_MAX_S"), knob("TOPUP_BACK_OFF_S") * 2 ** (streak - 1))
    until = timezone.now() + timedelta(seconds=seconds)
    # Kept a while after the pause so that a repeated 510 doubles it.
    soft_cache.write(PAUSE_KEY, {"streak": streak, "until": until}, seconds * 4)
    logger.warning("top-up: 510 from seekOrder, pausing queries for %ss", seconds)
    return until


def _clear_pause() -> None:
    if soft_cache.read(PAUSE_KEY) is not None:
        soft_cache.delete(PAUSE_KEY)


def _schedule(order_id: int, at: datetime, **fields: object) -> None:
    Order.objects.filter(pk=order_id, state__in=CHECKED_STATES).update(next_check_at=at, **fields)


def _schedule_backoff(order: Order) -> None:
    first = None if order.state == S.PENDING else knob("TOPUP_UNCERTAIN_FIRST_CHECK_S") or 1
    _schedule(order.pk, timezone.now() + backoff_delay(order.check_attempts, first))


# --- the beat job ------------------------------------------------------------------------


@dataclass(frozen=True)
class DueOrders:
    to_check: list[int]
    to_submit: list[int]


def due_orders(limit: int | None = None) -> DueOrders:
    """Orders whose next query is due, and `created` orders whose task was lost.

    The orders returned are leased (their next check moved a few minutes ahead), so that a
    slow queue does not get the same order twice from the next beat run.
    """
    now = timezone.now()
    limit = limit or knob("TOPUP_POLL_BATCH")
    to_check = list(
        Order.objects.filter(state__in=CHECKED_STATES)
        .filter(Q(next_check_at__lte=now) | Q(next_check_at__isnull=True))
        .order_by(F("next_check_at").asc(nulls_first=True))
        .values_list("pk", flat=True)[:limit]
    )
    lease = now + timedelta(minutes=5)
    if to_check:
        Order.objects.filter(pk__in=to_check).update(next_check_at=lease)
    stale = now - timedelta(seconds=knob("TOPUP_STALE_CREATED_S"))
    to_submit = list(
        Order.objects.filter(state=S.CREATED, created_at__lt=stale)
        .order_by("created_at")
        .values_list("pk", flat=True)[:limit]
    )
    return DueOrders(to_check, to_submit)


# --- one order ---------------------------------------------------------------------------


def check_order(order_id: int) -> str:
    """Query one open order now and apply the answer; returns the state it ends in."""
    order = Order.objects.get(pk=order_id)
    now = timezone.now()
    if order.is_final or order.state == S.CREATED:
        return order.state
    if order.state == S.SUBMITTED and order.submitted_at and (
        now - order.submitted_at < timedelta(seconds=knob("TOPUP_STALE_SUBMISSION_S"))
    ):
        # The chargeOrder may still be on its way; its own answer will settle this.
        _schedule(order.pk, order.submitted_at + timedelta(
            seconds=knob("TOPUP_STALE_SUBMISSION_S")))
        return order.state
    paused = seek_paused_until()
    if paused is not None:
        _schedule(order.pk, paused)
        return order.state
    result = _seek(order, around_submission=True)
    if result is None:
        return _state(order_id)
    if result.outcome is OrderOutcome.NO_SUCH_ORDER and _searched_window(order):
        # The window is one hour either side of our clock; the provider's may differ. Only a
        # search of the whole last week makes "no such order" worth acting on.
        result = _seek(order, around_submission=False)
        if result is None:
            return _state(order_id)
    _apply(order, result)
    _escalate_if_too_long(order_id)
    return _state(order_id)


def _state(order_id: int) -> str:
    return Order.objects.values_list("state", flat=True).get(pk=order_id)


def _searched_window(order: Order) -> bool:
    """Whether a 516 came from the one-hour window and a search of the week could differ."""
    moment = _requesttime(order)
    # Past six days the week-long search would not reach the order either.
    return moment is not None and timezone.now() - moment < timedelta(days=6)


def _requesttime(order: Order) -> datetime | None:
    """The search is centred on our chargeOrder: one hour either side of it."""
    return order.submitted_at


def _seek(order: Order, around_submission: bool) -> SeekResult | None:
    moment = _requesttime(order) if around_submission else None
    Order.objects.filter(pk=order.pk).update(check_attempts=F("check_attempts") + 1)
    order.check_attempts += 1
    try:
        result = build_client().seek_order(order.custno, requesttime=moment)
    except TopupError as error:
        log(order.pk, EventKind.SEEK, gettext_noop("seekOrder got no usable answer: %(problem)s"),
            params={"problem": str(error)})
        _schedule_backoff(order)
        return None
    if moment is not None:
        log(order.pk, EventKind.SEEK,
            gettext_noop("seekOrder around %(time)s answered code %(code)s."),
            params={"time": format_requesttime(moment), "code": result.code},
            code=result.code, info=result.info)
    else:
        log(order.pk, EventKind.SEEK,
            gettext_noop("seekOrder (last week) answered code %(code)s."),
            params={"code": result.code}, code=result.code, info=result.info)
    if result.remedy is Remedy.BACK_OFF:
        _schedule(order.pk, _pause_after_510())
        return None
    _clear_pause()
    if result.remedy is Remedy.REFRESH_TOKEN:
        # The client already refreshed once and was refused again: try later.
        _schedule_backoff(order)
        return None
    Order.objects.filter(pk=order.pk).update(last_code=result.code, last_info=result.info[:300])
    return result


def _apply(order: Order, result: SeekResult) -> None:
    outcome = result.outcome
    common: dict[str, Any] = {"code": result.code, "info": result.info}
    if outcome is OrderOutcome.SUCCESS:
        move(order.pk, S.SUCCESS, message=gettext_noop("The provider confirmed the top-up."),
             **common)
    elif outcome is OrderOutcome.FAILED:
        move(order.pk, S.FAILED, message=gettext_noop("The provider reports the top-up failed."),
             **common)
    elif outcome is OrderOutcome.MANUAL_CONFIRMATION:
        later = timezone.now() + timedelta(seconds=knob("TOPUP_CHECK_MAX_INTERVAL_S"))
        if not move(order.pk, S.MANUAL, message=gettext_noop(
                "The provider asks for manual confirmation (511)."),
                next_check_at=later, **common):
            _schedule(order.pk, later)
    elif outcome is OrderOutcome.IN_PROGRESS:
        move(order.pk, S.PENDING, sources=frozenset({S.SUBMITTED, S.UNKNOWN}),
             message=gettext_noop("The provider is working on the top-up."), **common)
        order.state = _state(order.pk)
        _schedule_backoff(order)
    else:
        _not_found(order)


def _not_found(order: Order) -> None:
    """516 after a search of the last week."""
    order.refresh_from_db()
    now = timezone.now()
    if order.orderno or order.charge_code in ACKNOWLEDGED_CHARGE_CODES or \
            order.state in (S.PENDING, S.MANUAL):
        # The provider told us it had this order; now it says it has none. A person decides.
        count = order.not_found_count + 1
        Order.objects.filter(pk=order.pk).update(not_found_count=count)
        if count >= knob("TOPUP_NOT_FOUND_LIMIT"):
            if not move(order.pk, S.MANUAL, code="516", message=gettext_noop(
                    "The provider acknowledged this order but now says it does not exist.")):
                _schedule(order.pk, now + backoff_delay(order.check_attempts))
        else:
            _schedule_backoff(order)
        return
    grace_end = (order.submitted_at or now) + timedelta(seconds=knob("TOPUP_NOT_FOUND_GRACE_S"))
    if now < grace_end:
        _schedule(order.pk, grace_end)
        return
    if order.state == S.SUBMITTED:
        move(order.pk, S.UNKNOWN, sources=frozenset({S.SUBMITTED}), code="516",
             message=gettext_noop(
                 "The worker sending this order stopped; the provider has no such order."))
    if order.charge_attempts < knob("TOPUP_MAX_CHARGE_ATTEMPTS"):
        resubmit_lost_order(order.pk, gettext_noop(
            "The provider never received the order: sending it again with the same custno."))
    else:
        move(order.pk, S.FAILED, sources=frozenset({S.UNKNOWN}), code="516",
             message=gettext_noop(
                 "The provider never received the order after %(attempts)s attempts."),
             params={"attempts": order.charge_attempts})


def _escalate_if_too_long(order_id: int) -> None:
    limit = timezone.now() - timedelta(seconds=knob("TOPUP_UNCERTAIN_LIMIT_S"))
    stuck = Order.objects.filter(
        pk=order_id, state__in=(S.SUBMITTED, S.PENDING, S.UNKNOWN), submitted_at__lt=limit
    ).exists()
    if stuck:
        move(order_id, S.MANUAL, message=gettext_noop(
            "No final answer from the provider within the time limit: a person must confirm."),
            next_check_at=timezone.now() + backoff_delay(99))
