"""Inbound callbacks: stored raw with their verdict, acknowledged, then applied idempotently.

The provider calls up to three times until it reads `{"info": "1"}` with HTTP 200, so the
answer says only "we have it and it is genuine"; what the callback means for the order is
decided afterwards, under the order's row lock, and a final state never moves back. Every
receipt is kept, including forged and unreadable ones, and a genuine one can be replayed.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

from backoffice.operations import soft_cache
from backoffice.operations.metrics import REFUSED_REQUESTS
from backoffice.operations.once_a_minute import warn
from backoffice.operations.queue import enqueue
from backoffice.security import bounded_input, tallies
from backoffice.security.bounded_input import BoundedBody
from providerkit.json_types import JSONObject, JSONValue
from topup.conf import knob
from topup.models import (
    FINAL_STATES,
    CallbackReceipt,
    EventKind,
    Order,
    OrderState,
    ReceiptOutcome,
)
from topup.rules import OrderOutcome, classify_callback_code
from topup.services.shared_token import TokenSnapshot, read_row, recent_snapshot, remember
from topup.services.statemachine import log, move
from topup.signing import CALLBACK_SIGNED_FIELDS, verify_callback_sign

logger = logging.getLogger(__name__)

S = OrderState
ACK = {"info": "1"}
# Answered when the callback could not be judged or stored through our own fault (503 with
# Retry-After): never 200 unless stored, never 4xx for what the sender did not cause.
UNAVAILABLE = {"info": "0", "error": "unavailable"}
# The provider's callback is a few hundred bytes; a body over this is refused unread (413).
MAX_CALLBACK_BYTES = 16 * 1024
REFUSED_ADDRESS_TALLY = "topup_callback_address"
# Refused addresses whose first callback of a minute is kept, at most, in any one minute.
REFUSED_SAMPLES_PER_MINUTE = 100
REDACTED_HEADERS = frozenset({"cookie", "authorization", "proxy-authorization"})
TARGET_OF: dict[OrderOutcome, OrderState] = {
    OrderOutcome.SUCCESS: S.SUCCESS,
    OrderOutcome.FAILED: S.FAILED,
    OrderOutcome.MANUAL_CONFIRMATION: S.MANUAL,
    OrderOutcome.IN_PROGRESS: S.PENDING,
}


@dataclass(frozen=True)
class CallbackReply:
    """What the endpoint answers: 200 with the acknowledgement only when stored and genuine."""

    status: int
    body: dict[str, str]
    receipt_id: int | None  # None: a refused request counted, not kept


def request_headers(meta: Mapping[str, object]) -> dict[str, str]:
    """The HTTP headers of a WSGI environ, credentials blanked (they are not ours to keep)."""
    headers: dict[str, str] = {}
    for key, value in meta.items():
        if key.startswith("HTTP_"):
            name = key[5:].replace("_", "-").title()
        elif key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            name = key.replace("_", "-").title()
        else:
            continue
        headers[name] = "[redacted]" if name.lower() in REDACTED_HEADERS else str(value)
    return headers


def receive_callback(
    body: BoundedBody, headers: dict[str, str], remote_addr: str | None
) -> CallbackReply:
    """Store and verify one callback, and have it applied; never raises for what the sender
    controls.

    One INSERT holds the raw request (body, headers, address) with the verdict on it, committed
    before the endpoint answers: every request from an allowed address is kept, forged and
    unreadable ones included, and a body over `MAX_CALLBACK_BYTES` as its first bytes and its
    size (the endpoint never reads more). A refused address is counted per minute instead,
    with its first request of the minute kept (`_refuse_address`). Reading and verifying are
    computed in memory first, and guarded, so that even a bug there cannot lose the request.
    What the callback means for the order is applied afterwards by a task
    (`process_pending_receipts`): the provider waits only for "stored and genuine", and a
    slow or failing order update never turns into a refused callback.
    """
    if not address_allowed(remote_addr):
        return _refuse_address(body, headers, remote_addr)
    if body.too_large:
        REFUSED_REQUESTS.labels("topup_callback_too_large").inc()
        receipt = CallbackReceipt.objects.create(
            body=body.data, body_size=body.size, headers=headers, remote_addr=remote_addr,
            outcome=ReceiptOutcome.TOO_LARGE, sign_valid=False, processed=True,
            error=f"body of {body.describe_size()} is over the {MAX_CALLBACK_BYTES}-byte "
                  "limit: refused unread, its first bytes kept")
        logger.warning("top-up callback #%s refused: body of %s", receipt.pk,
                       body.describe_size())
        return CallbackReply(413, {"info": "0", "error": "too_large"}, receipt.pk)
    verdict = _judge(body.data)
    receipt = CallbackReceipt.objects.create(
        body=body.data, body_size=body.size, headers=headers, remote_addr=remote_addr,
        **verdict.fields)
    if verdict.genuine:
        transaction.on_commit(schedule_processing)
        return CallbackReply(200, dict(ACK), receipt.pk)
    if verdict.fields["outcome"] == ReceiptOutcome.INVALID_SIGN:
        logger.warning("top-up callback #%s refused: bad sign (custno %r)", receipt.pk,
                       verdict.fields["custno"])
        return CallbackReply(403, {"info": "0", "error": "sign"}, receipt.pk)
    if verdict.fields["outcome"] == ReceiptOutcome.ERROR:
        # Our fault, not the sender's: kept, judged again by a beat job
        # (`judge_receipts_again`), and answered 503 so that the provider sends it again.
        return CallbackReply(503, dict(UNAVAILABLE), receipt.pk)
    # The detail (parser or codec messages, exception text) stays on the receipt for staff;
    # the unauthenticated caller only learns which kind of refusal it was.
    return CallbackReply(400, {"info": "0", "error": str(verdict.fields["outcome"])}, receipt.pk)


def _refuse_address(body: BoundedBody, headers: dict[str, str],
                    remote_addr: str | None) -> CallbackReply:
    """Counted per address and minute (`backoffice.models.AddressTally`); the first request of
    the minute is kept as a receipt (what it said stays readable for staff, never applied),
    the rest only counted, so that a flood from outside the list cannot fill the table."""
    refused = {"info": "0", "error": "address"}
    tally = tallies.count(REFUSED_ADDRESS_TALLY, remote_addr)
    if not tally.first or tallies.samples_kept(tally) >= REFUSED_SAMPLES_PER_MINUTE:
        return CallbackReply(403, refused, None)
    fields = {**_judge(body.data).fields, "outcome": ReceiptOutcome.REFUSED_ADDRESS,
              "processed": True,
              "error": f"{remote_addr} is not in TOPUP_CALLBACK_ALLOWED_IPS (later requests "
                       f"from {tally.source} this minute are counted, not kept)"}
    receipt = CallbackReceipt.objects.create(
        body=body.data, body_size=body.size, headers=headers, remote_addr=remote_addr,
        **fields)
    tallies.name_sample(tally, receipt.pk)
    logger.warning("top-up callback #%s refused: address %s not allowed", receipt.pk,
                   remote_addr)
    return CallbackReply(403, refused, receipt.pk)


def address_allowed(remote_addr: str | None) -> bool:
    """Whether TOPUP_CALLBACK_ALLOWED_IPS (addresses and networks; empty: any) lets it in."""
    allowed = getattr(settings, "TOPUP_CALLBACK_ALLOWED_IPS", None) or []
    if not allowed:
        return True
    try:
        address = ipaddress.ip_address(remote_addr or "")
    except ValueError:
        return False
    return any(address in ipaddress.ip_network(entry, strict=False) for entry in allowed)


@dataclass(frozen=True)
class Verdict:
    genuine: bool
    fields: dict[str, Any]  # columns of the receipt


def _judge(body: bytes) -> Verdict:
    try:
        payload, problem = _parse(body)
        if payload is None:
            return Verdict(False, {"outcome": ReceiptOutcome.MALFORMED, "sign_valid": False,
                                   "processed": True, "error": problem})
        fields = _fields(payload)
        signed_with = _verify(payload)
    except Exception as error:  # a bug here must not lose the request: keep it, refuse it
        if isinstance(error, OperationalError | InterfaceError):
            # The database is down (the token row unreadable): every callback of the outage
            # fails alike, so one line a minute, as the 503 page logs it (ui/outage.py).
            warn(__name__, "database", "top-up callback could not be judged: database "
                 "unavailable (%s)", type(error).__name__)
        else:
            logger.exception("top-up callback could not be judged")
        return Verdict(False, {"outcome": ReceiptOutcome.ERROR, "sign_valid": None,
                               "error": f"{type(error).__name__}: {error}"})
    if signed_with is None:
        return Verdict(False, {**fields, "outcome": ReceiptOutcome.INVALID_SIGN,
                               "sign_valid": False, "processed": True})
    return Verdict(True, {**fields, "sign_valid": True, "signed_with": signed_with,
                          "outcome": ReceiptOutcome.RECEIVED})


DRAIN_KEY = "topup:callbacks:drain-queued"
DRAIN_KEY_TIMEOUT_S = 300  # a lost task blocks new ones at most this long; beat covers it


def schedule_processing() -> None:
    """Queue one processing task for the callbacks stored until it runs.

    At most one task is queued or running at a time (the key), so a burst of callbacks costs
    one task, not one per callback; the common case is a cache read. No callback is left
    behind: this runs after the receipt's commit, and the task clears the key only when it
    finds nothing left to apply (see `drain_receipts`). While the cache is down the key cannot
    be read: a task is queued for each callback (each finds little to do), and if the broker
    is down too the beat job applies them. A task the broker refused takes its key back, so
    that the next callback queues one (the key would otherwise hold every callback back until
    it expires). A task lost after it was queued (a worker killed holding it, a Redis restart)
    leaves the key until the beat job (every minute) drains the receipts and clears it.
    """
    if soft_cache.read(DRAIN_KEY) is not None or \
            soft_cache.add(DRAIN_KEY, 1, DRAIN_KEY_TIMEOUT_S) is False:
        return  # a task is queued or running
    if enqueue("topup.tasks.process_callbacks_task", after_commit=False) is False:
        soft_cache.delete(DRAIN_KEY)


def drain_receipts() -> int:
    """Apply waiting callbacks until none is left, then release the key; returns how many.
    A run that fails (the database went away) releases it too, so that the next callback
    queues a new run rather than waiting for the key to expire."""
    done = 0
    try:
        while True:
            done += process_pending_receipts()
            soft_cache.delete(DRAIN_KEY)
            # A callback stored before the delete saw the key and queued nothing: look again.
            waiting = CallbackReceipt.objects.filter(
                sign_valid=True, processed=False, outcome=ReceiptOutcome.RECEIVED).exists()
            # Not added (False), or the cache is down (None): the other task or the beat job.
            if not waiting or not soft_cache.add(DRAIN_KEY, 1, DRAIN_KEY_TIMEOUT_S):
                return done  # nothing left, or a newly queued task will take it
    except Exception:
        soft_cache.delete(DRAIN_KEY)
        raise


def _parse(body: bytes) -> tuple[JSONObject | None, str]:
    try:
        payload: JSONValue = bounded_input.loads(body)
    except bounded_input.JsonTooDeep as error:
        return None, str(error)
    except (UnicodeDecodeError, ValueError) as error:
        return None, f"body is not JSON: {error}"
    if not isinstance(payload, dict):
        return None, f"body is JSON {type(payload).__name__}, not an object"
    return payload, ""


def _fields(payload: JSONObject) -> dict[str, str]:
    """The signed fields as text for the receipt's columns (the raw body keeps the originals)."""
    limits = {"custno": 64, "orderno": 64, "code": 10, "info": 300}
    values = {}
    for name in CALLBACK_SIGNED_FIELDS:
        value = payload.get(name)
        values[name] = (value if isinstance(value, str) else "")[: limits[name]]
    return values


def _verify(payload: JSONObject) -> str | None:
    """"current", "previous" or None.

    First against this process's recent copy of the tokens; a sign that does not match it is
    checked again against the token's row (past the cache, whose copy may be stale after a
    refresh made while the cache was down), so a token refreshed by another process seconds
    ago is never refused.
    """
    found = _verify_with(payload, recent_snapshot())
    if found is None:
        found = _verify_with(payload, remember(read_row()))
    return found


def _verify_with(payload: JSONObject, snapshot: TokenSnapshot | None) -> str | None:
    """Each candidate is compared in constant time (topup.signing), and both are compared
    before either result is looked at, so timing does not tell which one matched. Without a
    previous token (or past its grace period) only the current one is compared."""
    if snapshot is None:
        return None
    now = timezone.now()
    current = verify_callback_sign(payload, (snapshot.token,))
    previous_tokens = snapshot.callback_tokens(now)[1:]
    previous = verify_callback_sign(payload, previous_tokens)
    if current:
        return "current"
    if previous:
        return "previous"
    return None


def process_pending_receipts() -> int:
    """Apply every genuine receipt not processed yet, oldest first; returns how many were.

    Safe to run in several workers at once: each receipt is claimed under its row lock (rows
    another worker holds are skipped) and only while still unprocessed. A receipt whose
    processing fails keeps its error and is left for the next run, not retried in a loop.
    """
    left: set[int] = set()  # failed, or held by another worker: not tried again in this run
    done = 0
    while True:
        batch = [pk for pk in unprocessed_receipt_ids(limit=200 + len(left))
                 if pk not in left][:200]
        if not batch:
            return done
        for receipt_id in batch:
            try:
                processed = _process_one(receipt_id)
            except Exception as error:  # kept on the receipt; the beat job or a replay retries
                logger.exception("top-up callback #%s could not be processed", receipt_id)
                CallbackReceipt.objects.filter(pk=receipt_id).update(
                    outcome=ReceiptOutcome.ERROR, error=f"{type(error).__name__}: {error}")
                processed = 0
            if not processed:
                left.add(receipt_id)
            done += processed


def _process_one(receipt_id: int) -> int:
    with transaction.atomic():
        receipt = (CallbackReceipt.objects.select_for_update(skip_locked=True)
                   .filter(pk=receipt_id, processed=False, sign_valid=True).first())
        if receipt is None:
            return 0  # another worker has it, or has done it
        process_receipt(receipt)
        return 1


def process_receipt(receipt: CallbackReceipt, replay: bool = False) -> str:
    """Apply a genuine receipt to its order; returns the receipt's outcome. Idempotent."""
    outcome = classify_callback_code(receipt.code)
    target = TARGET_OF[outcome]
    with transaction.atomic():
        order = (Order.objects.select_for_update().only("id", "state", "orderno")
                 .filter(custno=receipt.custno).order_by().first())
        if order is None:
            result = ReceiptOutcome.UNKNOWN_CUSTNO
            logger.warning("top-up callback #%s for unknown custno %r", receipt.pk,
                           receipt.custno)
        else:
            result = _apply(order, receipt, target)
        CallbackReceipt.objects.filter(pk=receipt.pk).update(
            order=order, processed=True, processed_at=timezone.now(), outcome=result,
            unknown_custno=order is None, error="",
            replays=F("replays") + (1 if replay else 0),
        )
    return result


def _apply(order: Order, receipt: CallbackReceipt, target: OrderState) -> ReceiptOutcome:
    common: dict[str, Any] = {"kind": EventKind.CALLBACK, "code": receipt.code,
                              "info": receipt.info, "receipt": receipt}
    if receipt.orderno and order.orderno and receipt.orderno != order.orderno:
        Order.objects.filter(pk=order.pk).update(conflict=True)
        log(order.pk, message=gettext_noop(
            "Callback names provider order %(theirs)s, ours is %(ours)s: not applied."),
            params={"theirs": receipt.orderno, "ours": order.orderno}, **common)
        return ReceiptOutcome.CONFLICT
    if receipt.orderno and not order.orderno:
        Order.objects.filter(pk=order.pk, orderno="").update(orderno=receipt.orderno)
    if order.state == target:
        log(order.pk, message=gettext_noop("Callback repeated what we know: nothing to change."),
            **common)
        return ReceiptOutcome.DUPLICATE
    if order.state in FINAL_STATES:
        if target in FINAL_STATES:
            # success after failure or the reverse: the money question needs a person.
            Order.objects.filter(pk=order.pk).update(conflict=True)
            log(order.pk, message=gettext_noop(
                "Callback contradicts the final state: flagged, not applied."), **common)
            return ReceiptOutcome.CONFLICT
        log(order.pk, message=gettext_noop("Callback older than the final state: ignored."),
            **common)
        return ReceiptOutcome.STALE
    extra: dict[str, Any] = {"last_code": receipt.code, "last_info": receipt.info}
    if target == S.PENDING:
        extra["next_check_at"] = timezone.now() + timedelta(seconds=knob("TOPUP_FIRST_CHECK_S"))
    elif target == S.MANUAL:
        extra["next_check_at"] = timezone.now() + timedelta(
            seconds=knob("TOPUP_CHECK_MAX_INTERVAL_S"))
    # The row is locked (select_for_update in process_receipt): its state cannot change now.
    if move(order.pk, target, message=gettext_noop("Callback applied."),
            locked_state=order.state, **common, **extra):
        return ReceiptOutcome.APPLIED
    log(order.pk, message=gettext_noop(
        "Callback does not move the order from its state: ignored."), **common)
    return ReceiptOutcome.STALE


@dataclass(frozen=True)
class ReplaySummary:
    replayed: int
    skipped_invalid: int


def replay_receipts(receipt_ids: list[int]) -> ReplaySummary:
    """Process stored receipts again (from the admin or the command); invalid ones are skipped.

    A receipt's sign is judged once, on arrival, against the tokens of that moment: a replay
    does not re-judge a verdict, so a forged callback can never become valid later. A receipt
    whose judging itself failed (`sign_valid` None: no verdict was reached) is judged on replay,
    against the tokens known now, so it can be applied once the cause is gone.
    """
    replayed = skipped = 0
    for receipt in CallbackReceipt.objects.filter(pk__in=receipt_ids).order_by("received_at"):
        if receipt.sign_valid is None and not _judge_again(receipt):
            skipped += 1
            continue
        if not receipt.sign_valid:
            skipped += 1
            continue
        process_receipt(receipt, replay=True)
        replayed += 1
    return ReplaySummary(replayed, skipped)


def _judge_again(receipt: CallbackReceipt) -> bool:
    """Judge a receipt whose first judging raised; stores the verdict, True when genuine."""
    verdict = _judge(bytes(receipt.body))
    if verdict.fields.get("sign_valid") is None:
        return False  # still failing: the receipt keeps its error for the next attempt
    CallbackReceipt.objects.filter(pk=receipt.pk, sign_valid__isnull=True).update(
        **verdict.fields)
    receipt.refresh_from_db()
    return verdict.genuine


def judge_receipts_again() -> int:
    """Judge again every receipt whose judging failed (an outage: the token row could not be
    read), and apply those that judge genuine; returns how many were applied. Run by beat.

    Judging is computed from the stored body against the tokens known now, as a replay does
    (`_judge_again`); the provider, answered 503, usually sends the callback again too, and
    the second copy is a duplicate that changes nothing.
    """
    applied = 0
    waiting = (CallbackReceipt.objects.filter(sign_valid__isnull=True, processed=False,
                                              outcome=ReceiptOutcome.ERROR)
               .order_by("pk").values_list("pk", flat=True))
    for receipt_id in list(waiting[:1000]):
        receipt = CallbackReceipt.objects.get(pk=receipt_id)
        try:
            if _judge_again(receipt):
                process_receipt(receipt)
                applied += 1
        except Exception:  # still failing (the outage goes on): the next run tries again
            logger.exception("top-up callback #%s could not be judged again", receipt_id)
    return applied


def unprocessed_receipt_ids(limit: int = 500) -> list[int]:
    """Genuine receipts not applied yet (waiting, or whose processing failed), oldest first."""
    return list(
        CallbackReceipt.objects.filter(sign_valid=True, processed=False)
        .order_by("received_at")
        .values_list("pk", flat=True)[:limit]
    )
