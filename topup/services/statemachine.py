"""The order state machine: which state may follow which, applied by conditional updates.

Callbacks, queries, workers and staff act on the same order at the same time, so no caller reads
a state and then writes another: `move` issues `UPDATE ... WHERE state IN (<allowed sources>)`
and only the caller whose update matched a row logs the change. Final states have no outgoing
transition at all, so nothing can move them back.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from backoffice.annotations import StaffUser
from providerkit.json_types import JSONObject
from topup.models import FINAL_STATES, CallbackReceipt, EventKind, Order, OrderEvent, OrderState

S = OrderState

# target state -> the states it may be reached from
ALLOWED_SOURCES: dict[OrderState, frozenset[OrderState]] = {
    # `unknown -> submitted` only after the provider confirmed it never got the order.
    S.SUBMITTED: frozenset({S.CREATED, S.UNKNOWN}),
    S.PENDING: frozenset({S.SUBMITTED, S.UNKNOWN}),
    S.UNKNOWN: frozenset({S.SUBMITTED}),
    S.MANUAL: frozenset({S.SUBMITTED, S.PENDING, S.UNKNOWN}),
    S.SUCCESS: frozenset({S.SUBMITTED, S.PENDING, S.UNKNOWN, S.MANUAL}),
    # `created -> failed` when the order cannot be sent at all (a rule of the spec refuses it).
    S.FAILED: frozenset({S.CREATED, S.SUBMITTED, S.PENDING, S.UNKNOWN, S.MANUAL}),
}
# Backward moves that are not transitions of the order but undo a claim that sent nothing.
RELEASE_SOURCES: dict[OrderState, frozenset[OrderState]] = {S.CREATED: frozenset({S.SUBMITTED})}

assert not any(ALLOWED_SOURCES[target] & FINAL_STATES for target in ALLOWED_SOURCES)


def can_move(source: str, target: OrderState) -> bool:
    return source in ALLOWED_SOURCES.get(target, frozenset())


def move(
    order_id: int,
    target: OrderState,
    *,
    kind: str = EventKind.STATE,
    message: str = "",
    params: JSONObject | None = None,
    code: str = "",
    info: str = "",
    actor: StaffUser | None = None,
    receipt: CallbackReceipt | None = None,
    sources: frozenset[OrderState] | None = None,
    locked_state: str | None = None,
    **fields: Any,
) -> str | None:
    """Move the order to `target` if its state allows it; return the state it left, else None.

    `message` is an untranslated message id (mark it with gettext_noop) filled from `params`
    when the timeline is shown.

    `fields` are written in the same UPDATE (e.g. orderno, finished_at). `sources` narrows the
    allowed sources further (a caller that claimed `submitted` moves only from there).
    `locked_state` is for a caller that already holds the order's row lock in the current
    transaction and read its state under it: the second read is skipped.
    """
    allowed = ALLOWED_SOURCES.get(target) or RELEASE_SOURCES[target]
    if sources is not None:
        allowed = allowed & sources
    now = timezone.now()
    values: dict[str, Any] = {"state": target, "updated_at": now, **fields}
    if target in FINAL_STATES:
        values.setdefault("finished_at", now)
        values.setdefault("next_check_at", None)
    # No savepoint when nested: a failure here must undo the caller's work too.
    with transaction.atomic(savepoint=False):
        # Lock first, so that the source we log is the one the update really left.
        if locked_state is not None:
            previous = locked_state if locked_state in allowed else None
        else:
            previous = (
                Order.objects.select_for_update()
                .filter(pk=order_id, state__in=allowed)
                .values_list("state", flat=True)
                .first()
            )
        if previous is None:
            return None
        Order.objects.filter(pk=order_id, state=previous).update(**values)
        OrderEvent.objects.create(
            order_id=order_id,
            kind=kind,
            from_state=previous,
            to_state=target,
            code=code,
            info=info[:300],
            message=message,
            params=params or {},
            actor=actor,
            receipt=receipt,
        )
    return previous


def log(order_id: int, kind: str, message: str = "", **fields: Any) -> OrderEvent:
    """Append a timeline line that changes no state (a call, an answer, a duplicate).

    `message` is an untranslated message id, like `move`'s.
    """
    if "info" in fields:
        fields["info"] = (fields["info"] or "")[:300]
    return OrderEvent.objects.create(order_id=order_id, kind=kind, message=message, **fields)
