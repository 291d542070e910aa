"""An order from placement to its final state against the real sandbox: custno stored first,
chargeOrder answers mapped to states, queries settling what the answer left open."""

from __future__ import annotations

import pytest

from tests.topup.conftest import CMCC_NUMBER, CUCC_NUMBER
from topup import services
from topup.models import EventKind, Order, OrderSource, OrderState

pytestmark = pytest.mark.django_db


def place(mobile: str = CMCC_NUMBER, code: str = "CMCC_10", user=None) -> Order:
    return services.place_order(services.OrderRequest(mobile=mobile, product_code=code),
                                requested_by=user, source=OrderSource.SINGLE)


def test_the_custno_is_stored_before_anything_is_sent(topup_sandbox, products, operator,
                                                      django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        order = place(user=operator)
    stored = Order.objects.get(pk=order.pk)
    assert stored.state == OrderState.CREATED
    assert len(stored.custno) == 28 and stored.requested_by == operator
    assert stored.price == products["CMCC_10"].price
    assert topup_sandbox.orders() == []  # nothing left the building yet
    assert len(queued) == 1  # the chargeOrder task is queued only once the row is committed
    assert [e.kind for e in stored.events.all()] == [EventKind.CREATED]


def test_a_created_order_goes_pending_then_success_by_query(topup_sandbox, products):
    order = place()
    assert services.submit_order(order.pk) == OrderState.PENDING
    order.refresh_from_db()
    at_provider = topup_sandbox.orders()
    assert [o["custno"] for o in at_provider] == [order.custno]
    assert order.orderno == at_provider[0]["orderno"]
    assert order.charge_code == "200" and order.charge_attempts == 1
    topup_sandbox.advance(10)
    assert services.check_order(order.pk) == OrderState.SUCCESS
    order.refresh_from_db()
    assert order.finished_at is not None and order.next_check_at is None
    kinds = [e.kind for e in order.events.all()]
    assert kinds[:2] == [EventKind.CREATED, EventKind.STATE]
    assert EventKind.CHARGE in kinds and EventKind.SEEK in kinds


def test_an_order_already_claimed_is_not_sent_again(topup_sandbox, products):
    order = place()
    services.submit_order(order.pk)
    assert services.submit_order(order.pk) == OrderState.PENDING
    assert len(topup_sandbox.orders()) == 1


def test_a_number_that_always_fails_ends_failed_by_query(topup_sandbox, products):
    topup_sandbox.rule(CMCC_NUMBER, outcome="fail", fail_code="430")
    order = place()
    services.submit_order(order.pk)
    topup_sandbox.advance(10)
    assert services.check_order(order.pk) == OrderState.FAILED
    order.refresh_from_db()
    assert order.last_code == "430"


def test_a_refused_charge_fails_the_order_at_once(topup_sandbox, products):
    # CUCC_20 for a CMCC number with the carrier check bypassed: the provider answers 506.
    order = services.place_order(
        services.OrderRequest(mobile=CMCC_NUMBER, product_code="CUCC_20",
                              allow_other_carrier=True),
        requested_by=None, source=OrderSource.SINGLE)
    assert services.submit_order(order.pk) == OrderState.FAILED
    order.refresh_from_db()
    assert order.charge_code == "506" and order.finished_at is not None
    assert topup_sandbox.orders() == []


@pytest.mark.parametrize("charge_code", ["410", "511"])
def test_a_410_or_511_answer_is_queried_not_resent(topup_sandbox, products, charge_code):
    topup_sandbox.rule(CUCC_NUMBER, outcome="success", charge_code=charge_code)
    order = place(CUCC_NUMBER, "CUCC_20")
    assert services.submit_order(order.pk) == OrderState.UNKNOWN
    order.refresh_from_db()
    assert order.charge_code == charge_code
    assert services.check_order(order.pk) == OrderState.PENDING
    topup_sandbox.advance(10)
    assert services.check_order(order.pk) == OrderState.SUCCESS
    assert len(topup_sandbox.orders()) == 1


def test_a_511_query_answer_puts_the_order_in_the_manual_queue(topup_sandbox, products):
    topup_sandbox.rule(CMCC_NUMBER, outcome="manual")
    order = place()
    services.submit_order(order.pk)
    topup_sandbox.advance(10)
    assert services.check_order(order.pk) == OrderState.MANUAL
    assert list(services.manual_queue()) == [Order.objects.get(pk=order.pk)]
