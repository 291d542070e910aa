"""511 through the manual queue: a top-up operator records the outcome with a reason (audited);
nobody else can, and an order that left the queue meanwhile is not overwritten."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.topup.conftest import CMCC_NUMBER
from topup import services
from topup.models import EventKind, Order, OrderSource, OrderState

pytestmark = pytest.mark.django_db


@pytest.fixture
def manual_order(topup_sandbox, products) -> Order:
    topup_sandbox.rule(CMCC_NUMBER, outcome="manual")
    order = services.place_order(services.OrderRequest(mobile=CMCC_NUMBER,
                                                       product_code="CMCC_10"),
                                 requested_by=None, source=OrderSource.SINGLE)
    services.submit_order(order.pk)
    topup_sandbox.advance(10)
    assert services.check_order(order.pk) == OrderState.MANUAL
    return Order.objects.get(pk=order.pk)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_operator_records_the_outcome_with_a_reason(manual_order, operator):
    client = signed_in(operator)
    page = client.get(reverse("topup:manual_queue"))
    assert manual_order.custno in page.content.decode()
    response = client.post(reverse("topup:manual_confirm", args=[manual_order.custno]),
                           {"outcome": "success", "reason": "Provider support, ticket 4711",
                            "confirmed": "1"})
    assert response.status_code == 302
    manual_order.refresh_from_db()
    assert manual_order.state == OrderState.SUCCESS and manual_order.settled_manually
    event = manual_order.events.get(kind=EventKind.MANUAL)
    assert event.actor == operator and event.from_state == OrderState.MANUAL
    assert "Provider support, ticket 4711" in event.text
    assert list(services.manual_queue()) == []


def test_a_verdict_without_a_real_reason_is_refused(manual_order, operator):
    response = signed_in(operator).post(
        reverse("topup:manual_confirm", args=[manual_order.custno]),
        {"outcome": "failed", "reason": "ok"})
    assert response.status_code == 200
    assert "reason" in response.context["form"].errors
    manual_order.refresh_from_db()
    assert manual_order.state == OrderState.MANUAL


def test_an_unknown_outcome_is_refused(manual_order, operator):
    with pytest.raises(services.OrderInputError) as refused:
        services.confirm_manual(manual_order.pk, "pending", "Provider support said so", operator)
    assert refused.value.field == "outcome"


def test_an_auditor_cannot_record_an_outcome(manual_order, auditor):
    client = signed_in(auditor)
    page = client.get(reverse("topup:order_detail", args=[manual_order.custno]))
    assert page.status_code == 200 and 'name="reason"' not in page.content.decode()
    response = client.post(reverse("topup:manual_confirm", args=[manual_order.custno]),
                           {"outcome": "success", "reason": "I would like it to be"})
    assert response.status_code == 403
    manual_order.refresh_from_db()
    assert manual_order.state == OrderState.MANUAL


def test_an_order_settled_meanwhile_is_not_overwritten(manual_order, operator):
    from topup.services.statemachine import move

    move(manual_order.pk, OrderState.FAILED, message="callback")
    with pytest.raises(services.OrderInputError) as refused:
        services.confirm_manual(manual_order.pk, "success", "Provider support said so", operator)
    assert "no longer waiting" in refused.value.message
    manual_order.refresh_from_db()
    assert manual_order.state == OrderState.FAILED and not manual_order.settled_manually


def test_an_order_without_a_final_answer_for_too_long_goes_to_a_person(
        topup_sandbox, products, settings):
    topup_sandbox.settings(progress_delay_s=10 * 24 * 3600)
    order = services.place_order(services.OrderRequest(mobile=CMCC_NUMBER,
                                                       product_code="CMCC_10"),
                                 requested_by=None, source=OrderSource.SINGLE)
    services.submit_order(order.pk)
    assert services.check_order(order.pk) == OrderState.PENDING
    settings.TOPUP_UNCERTAIN_LIMIT_S = 3600
    Order.objects.filter(pk=order.pk).update(
        submitted_at=timezone.now() - timedelta(hours=2))
    assert services.check_order(order.pk) == OrderState.MANUAL
