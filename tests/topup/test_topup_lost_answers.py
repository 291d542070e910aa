"""chargeOrder answers lost on the network: the order is queried, never resent blindly, and ends
with exactly one order at the provider and the right final state here."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.topup.conftest import CMCC_NUMBER
from topup import services
from topup.models import EventKind, Order, OrderSource, OrderState
from topup.services.shared_token import TokenUnavailable

pytestmark = pytest.mark.django_db


def place() -> Order:
    return services.place_order(services.OrderRequest(mobile=CMCC_NUMBER, product_code="CMCC_10"),
                                requested_by=None, source=OrderSource.SINGLE)


def provider_orders(control, custno: str) -> list[dict]:
    return [o for o in control.orders() if o["custno"] == custno]


@pytest.mark.parametrize("fault", [
    {"action": "drop"},
    {"action": "timeout"},
    {"action": "status", "status": 500, "body": "upstream error"},
], ids=["dropped", "timed-out", "http-500"])
def test_an_answer_lost_after_the_order_was_created_ends_with_one_order(
        topup_sandbox, products, fault):
    topup_sandbox.fault(path="/chargeOrder", when="after", times=1, **fault)
    order = place()
    assert services.submit_order(order.pk) == OrderState.UNKNOWN
    assert len(provider_orders(topup_sandbox, order.custno)) == 1
    assert services.check_order(order.pk) == OrderState.PENDING
    topup_sandbox.advance(10)
    assert services.check_order(order.pk) == OrderState.SUCCESS
    assert len(provider_orders(topup_sandbox, order.custno)) == 1
    order.refresh_from_db()
    assert order.charge_attempts == 1


def test_a_request_lost_before_the_provider_is_not_resent_within_the_grace(
        topup_sandbox, products, settings):
    settings.TOPUP_NOT_FOUND_GRACE_S = 600
    topup_sandbox.fault(path="/chargeOrder", when="before", action="drop", times=1)
    order = place()
    assert order is not None
    assert services.submit_order(order.pk) == OrderState.UNKNOWN
    assert services.check_order(order.pk) == OrderState.UNKNOWN
    assert provider_orders(topup_sandbox, order.custno) == []
    order.refresh_from_db()
    assert order.charge_attempts == 1
    assert order.next_check_at is not None and order.submitted_at is not None
    assert order.next_check_at >= order.submitted_at + timedelta(seconds=599)
    # Asked twice: the one-hour window around the submission, then the whole week.
    seeks = order.events.filter(kind=EventKind.SEEK)
    assert [e.code for e in seeks] == ["516", "516"]


def test_a_request_lost_before_the_provider_is_resent_with_the_same_custno_after_the_grace(
        topup_sandbox, products, settings):
    settings.TOPUP_NOT_FOUND_GRACE_S = 0
    topup_sandbox.fault(path="/chargeOrder", when="before", action="status", status=502,
                        times=1)
    order = place()
    assert services.submit_order(order.pk) == OrderState.UNKNOWN
    assert services.check_order(order.pk) == OrderState.PENDING
    at_provider = provider_orders(topup_sandbox, order.custno)
    assert len(at_provider) == 1
    order.refresh_from_db()
    assert order.charge_attempts == 2 and order.orderno == at_provider[0]["orderno"]
    topup_sandbox.advance(10)
    assert services.check_order(order.pk) == OrderState.SUCCESS


def test_a_resend_meeting_a_late_original_gets_512_and_queries(
        topup_sandbox, products, settings, monkeypatch):
    """The first request was only delayed: when we resend, the provider already has the custno.
    """
    settings.TOPUP_NOT_FOUND_GRACE_S = 0
    topup_sandbox.fault(path="/chargeOrder", when="before", action="drop", times=1)
    order = place()
    services.submit_order(order.pk)
    from topup.services import checking

    original = checking.resubmit_lost_order

    def original_arrives_first(order_id, reason):
        services.build_client().charge_order(order.custno, CMCC_NUMBER, "CMCC_10")
        return original(order_id, reason)

    monkeypatch.setattr(checking, "resubmit_lost_order", original_arrives_first)
    assert services.check_order(order.pk) == OrderState.UNKNOWN
    order.refresh_from_db()
    assert order.charge_code == "512"
    monkeypatch.undo()
    assert services.check_order(order.pk) == OrderState.PENDING
    assert len(provider_orders(topup_sandbox, order.custno)) == 1
    topup_sandbox.advance(10)
    assert services.check_order(order.pk) == OrderState.SUCCESS
    assert topup_sandbox.balance()["balance"] == pytest.approx(1000 - 2.85)


def test_an_order_never_received_fails_after_the_last_attempt(topup_sandbox, products, settings):
    settings.TOPUP_NOT_FOUND_GRACE_S = 0
    settings.TOPUP_MAX_CHARGE_ATTEMPTS = 1
    topup_sandbox.fault(path="/chargeOrder", when="before", action="drop", times=1)
    order = place()
    services.submit_order(order.pk)
    assert services.check_order(order.pk) == OrderState.FAILED
    assert provider_orders(topup_sandbox, order.custno) == []
    order.refresh_from_db()
    assert order.last_code == "516" and order.is_final


def test_a_submission_still_in_flight_is_not_queried(topup_sandbox, products):
    order = place()
    Order.objects.filter(pk=order.pk).update(state=OrderState.SUBMITTED,
                                             submitted_at=timezone.now())
    assert services.check_order(order.pk) == OrderState.SUBMITTED
    assert not Order.objects.get(pk=order.pk).events.filter(kind=EventKind.SEEK).exists()


def test_an_order_whose_worker_died_mid_call_is_found_by_query(topup_sandbox, products):
    order = place()
    # The worker claimed the order and sent chargeOrder, then died before reading the answer.
    Order.objects.filter(pk=order.pk).update(state=OrderState.SUBMITTED,
                                             submitted_at=timezone.now() - timedelta(minutes=10),
                                             charge_attempts=1)
    services.build_client().charge_order(order.custno, CMCC_NUMBER, "CMCC_10")
    assert services.check_order(order.pk) == OrderState.PENDING
    assert len(provider_orders(topup_sandbox, order.custno)) == 1


def test_an_order_whose_worker_died_before_sending_is_sent_once(topup_sandbox, products,
                                                                 settings):
    settings.TOPUP_NOT_FOUND_GRACE_S = 60
    order = place()
    Order.objects.filter(pk=order.pk).update(state=OrderState.SUBMITTED,
                                             submitted_at=timezone.now() - timedelta(minutes=10),
                                             charge_attempts=1)
    assert services.check_order(order.pk) == OrderState.PENDING
    assert len(provider_orders(topup_sandbox, order.custno)) == 1
    order.refresh_from_db()
    assert order.charge_attempts == 2


def test_no_token_means_nothing_sent_and_the_order_waits(topup_sandbox, products):
    topup_sandbox.fault(path="/refreshToken", action="status", status=503, times=1)
    order = place()
    with pytest.raises(TokenUnavailable):
        services.submit_order(order.pk)
    order.refresh_from_db()
    assert order.state == OrderState.CREATED and order.charge_attempts == 0
    assert topup_sandbox.orders() == []
    # Next time round, with a token to be had, it goes out once.
    assert services.submit_order(order.pk) == OrderState.PENDING
    assert len(topup_sandbox.orders()) == 1
