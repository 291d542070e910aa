"""The callback to the merchant: scheduled when an outcome is known, sent from the tick.

A delivery makes up to 3 calls, each 60 s (sandbox clock) after the previous one, until one is
acknowledged by HTTP 200 with the JSON `{"info": "1"}`. Calls are made outside any database
transaction, with a short timeout, and every call is recorded.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

import requests
from django.db import transaction
from django.db.models import F

from sandbox.core import clock
from sandbox.topup import codes, config, tokens
from sandbox.topup.models import CallbackAttempt, CallbackDelivery, Order, Rule
from sandbox.topup.signing import sign

logger = logging.getLogger(__name__)

CALLS_PER_DELIVERY = 3
RETRY_AFTER_S = 60.0
TIMEOUT_S = (2.0, 3.0)  # connect, read: a slow merchant must not hold up the tick for long
RESPONSE_KEPT = 2000  # characters of the merchant's answer kept in the record


@dataclass(frozen=True)
class CallResult:
    status: int | None
    response: str
    error: str
    acknowledged: bool


def schedule(order: Order, code: str, known_at: float) -> None:
    """Queue the callback for an outcome (inside the caller's transaction). Nothing is queued
    when no callback address is configured, as the provider has nowhere to call."""
    if not config.settings().callback_url or order.callback_mode == Rule.Callback.NONE:
        return
    first_call = known_at
    if order.callback_mode == Rule.Callback.LATE:
        first_call += order.callback_delay_s
    count = 2 if order.callback_mode == Rule.Callback.DUPLICATE else 1
    for _ in range(count):
        CallbackDelivery.objects.create(order=order, code=code, next_due_at=first_call)


def callback_body(order: Order, code: str, token: str) -> dict[str, str]:
    info = codes.ORDER_INFO.get(code, code)
    return {
        "code": code, "orderno": order.orderno, "custno": order.custno, "info": info,
        "sign": sign([("code", code), ("custno", order.custno), ("info", info),
                      ("orderno", order.orderno), ("token", token)]),
    }


def send_due(now: float) -> None:
    """Make every call that is due by `now`, including retries that fall due meanwhile.

    After a clock advance of ten minutes all three calls of an unanswered delivery are made
    before the advance answers, as "every event due by then fires" promises. Each pass makes at
    least one call or ends, and a delivery makes at most three, so the loop ends.
    """
    while True:
        due = CallbackDelivery.objects.filter(state=CallbackDelivery.State.PENDING,
                                              next_due_at__lte=now)
        due_ids = list(due.order_by("next_due_at", "id").values_list("id", flat=True))
        made = [send(delivery_id) for delivery_id in due_ids]  # every one, no short-circuit
        if not any(made):
            return


def send(delivery_id: int) -> bool:
    """Make one call of a delivery; returns whether this runner made it.

    The claim is a lease, not a state: it counts the call and moves the due time to the next
    retry in one conditional UPDATE before the call is made. If the process dies during the
    call, the delivery is simply due again at the retry time, so no delivery is ever stranded.
    """
    row = CallbackDelivery.objects.filter(
        pk=delivery_id, state=CallbackDelivery.State.PENDING,
    ).values_list("next_due_at", "calls_made").first()
    if row is None:
        return False
    scheduled_at, calls_before = row
    if calls_before >= CALLS_PER_DELIVERY:  # the last call was lost with its process
        CallbackDelivery.objects.filter(pk=delivery_id).update(
            state=CallbackDelivery.State.GAVE_UP, next_due_at=None)
        return False
    claimed = CallbackDelivery.objects.filter(
        pk=delivery_id, state=CallbackDelivery.State.PENDING, next_due_at=scheduled_at,
    ).update(calls_made=F("calls_made") + 1,
             # A pending delivery always has a due time (None only once it has ended).
             next_due_at=scheduled_at + RETRY_AFTER_S)  # type: ignore[operator]
    if not claimed:
        return False  # another runner took it
    call_number = calls_before + 1
    delivery = CallbackDelivery.objects.select_related("order").get(pk=delivery_id)
    url = config.settings().callback_url
    token = tokens.latest()  # signed with the token current when sent (DECISIONS)
    body = callback_body(delivery.order, delivery.code, token.value if token else "")
    sent_at = clock.now()
    result = call(url, body)
    with transaction.atomic():
        CallbackAttempt.objects.create(
            delivery=delivery, call=call_number, sent_at=sent_at, url=url, body=body,
            status=result.status, response=result.response, error=result.error,
            acknowledged=result.acknowledged)
        if result.acknowledged:
            final = CallbackDelivery.State.ACKNOWLEDGED
        elif call_number >= CALLS_PER_DELIVERY:
            final = CallbackDelivery.State.GAVE_UP
        else:
            return True  # still pending: the lease already set the retry time
        CallbackDelivery.objects.filter(pk=delivery_id).update(state=final, next_due_at=None)
    return True


def call(url: str, body: dict[str, str]) -> CallResult:
    if not url:
        return CallResult(None, "", "no callback_url configured", False)
    try:
        response = requests.post(url, json=body, timeout=TIMEOUT_S, allow_redirects=False)
    except requests.RequestException as error:
        logger.info("top-up callback to %s failed: %s", url, error)
        return CallResult(None, "", f"{type(error).__name__}: {error}", False)
    text = response.text[:RESPONSE_KEPT]
    return CallResult(response.status_code, text, "",
                      response.status_code == 200 and is_acknowledgement(response.content))


def is_acknowledgement(content: bytes) -> bool:
    """Exactly a JSON object whose `info` is the string "1"."""
    try:
        answer = json.loads(content)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return False
    return isinstance(answer, dict) and answer.get("info") == "1"
