"""A 500-order bulk run with 10 % of the provider calls failing on the network: every order
ends final, the provider holds exactly one order per custno we sent, and the balance matches
what the succeeded orders cost."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from topup import services
from topup.models import FINAL_STATES, BatchStatus, Order, OrderState, SnapshotSource

pytestmark = pytest.mark.django_db(transaction=True)

PREFIXES = {"CMCC": "138", "CUCC": "130", "CTCC": "133"}
ORDERS = 500


def bulk_csv(count: int, seed: int) -> bytes:
    rng = random.Random(seed)
    codes = ["CMCC_10", "CMCC_30", "CMCC_100", "CUCC_20", "CUCC_50", "CTCC_10", "CTCC_30"]
    lines = ["mobile,product"]
    for index in range(count):
        code = rng.choice(codes)
        lines.append(f"{PREFIXES[code[:4]]}{index:08d},{code}")
    return "\n".join(lines).encode()


def settle_everything(topup_sandbox, rounds: int = 12) -> None:
    """What the beat job does over time: query every open order, both clocks running.

    Ours moves with the provider's: the rounds take milliseconds, so an order charged again in
    a round would otherwise still be "just submitted" (its charge perhaps on its way, left
    alone for TOPUP_STALE_SUBMISSION_S) through every later round.
    """
    with time_machine.travel(timezone.now(), tick=True) as traveller:
        for _ in range(rounds):
            open_ids = list(Order.objects.exclude(state__in=FINAL_STATES).values_list(
                "pk", flat=True))
            if not open_ids:
                return
            topup_sandbox.advance(30)
            traveller.shift(30)
            for order_id in open_ids:
                services.check_order(order_id)


def test_a_500_order_bulk_run_with_faults_ends_final_and_balanced(
        topup_sandbox, callbacks_here, products, operator, eager_tasks, settings):
    settings.PROVIDER_TIMEOUT_S = 1
    settings.TOPUP_NOT_FOUND_GRACE_S = 0
    settings.TOPUP_STALE_SUBMISSION_S = 1
    # Results become due only when the test moves the provider's clock, so callbacks arrive
    # while this thread waits (the in-memory SQLite of the tests has no lock waiting).
    topup_sandbox.settings(balance=5000, failure_rate=0.1, progress_delay_s=600)
    # 10 % of chargeOrder and seekOrder calls fail: the answer lost after the provider acted,
    # the request lost before it, an HTTP error page, or a timeout.
    for path in ("/chargeOrder", "/seekOrder"):
        topup_sandbox.fault(path=path, action="drop", when="after", probability=0.04)
        topup_sandbox.fault(path=path, action="status", status=502, when="before",
                            probability=0.04)
        topup_sandbox.fault(path=path, action="timeout", when="after", probability=0.02)
    start = services.take_snapshot(SnapshotSource.STAFF)

    batch = services.check_upload("run.csv", bulk_csv(ORDERS, seed=4), operator)
    assert batch.problems == [] and len(batch.rows) == ORDERS
    assert services.confirm_batch(batch.pk, operator) == ORDERS  # each sent after commit
    topup_sandbox.advance(600)  # results known: the provider calls back
    settle_everything(topup_sandbox)
    topup_sandbox.clear_faults()
    # An order charged again in the last rounds (its answer lost) has its result due only
    # after the provider's progress delay: let that pass once more before the last rounds.
    topup_sandbox.advance(600)
    settle_everything(topup_sandbox)

    orders = list(Order.objects.filter(batch=batch))
    assert len(orders) == ORDERS
    assert {o.state for o in orders} <= set(FINAL_STATES), [
        (o.custno, o.state) for o in orders if not o.is_final][:5]
    at_provider = topup_sandbox.orders()
    custnos = [o["custno"] for o in at_provider]
    assert len(custnos) == len(set(custnos)), "an order was charged twice"
    by_custno = {o["custno"]: o for o in at_provider}
    for order in orders:
        theirs = by_custno.get(order.custno)
        if order.state == OrderState.SUCCESS:
            assert theirs is not None and theirs["code"] == "200", order.custno
        elif theirs is not None:
            assert theirs["code"] in ("430", "530"), (order.custno, theirs["code"])
    succeeded = [o for o in orders if o.state == OrderState.SUCCESS]
    failed = [o for o in orders if o.state == OrderState.FAILED]
    assert succeeded and failed  # the failure rate and the faults did bite
    spent = sum((o.price for o in succeeded), Decimal("0"))
    end = services.take_snapshot(SnapshotSource.STAFF)
    assert end.freeze == Decimal("0.00")
    assert end.balance == start.balance - spent
    order_batch = Order.objects.get(pk=orders[0].pk).batch
    assert order_batch is not None and order_batch.status == BatchStatus.CONFIRMED
