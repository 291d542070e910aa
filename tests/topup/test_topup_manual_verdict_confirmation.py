"""A manual verdict is irreversible: a valid form is asked once more on the confirmation page,
which names the order, the verdict and what follows from it; only its answer (`confirmed=1`)
records the verdict, with its audit entry. A bad form is refused before any question."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from backoffice.models import AuditEntry
from tests.topup.conftest import CMCC_NUMBER
from topup import services
from topup.models import Order, OrderSource, OrderState
from topup.services.statemachine import move

pytestmark = pytest.mark.django_db

REASON = "Provider support, ticket 4711"


@pytest.fixture
def manual_order(products) -> Order:
    order = services.place_order(services.OrderRequest(mobile=CMCC_NUMBER,
                                                       product_code="CMCC_10"),
                                 requested_by=None, source=OrderSource.SINGLE)
    Order.objects.filter(pk=order.pk).update(state=OrderState.MANUAL)
    return Order.objects.get(pk=order.pk)


@pytest.fixture
def client(operator) -> Client:
    client = Client()
    client.force_login(operator)
    return client


def url(order: Order) -> str:
    return reverse("topup:manual_confirm", args=[order.custno])


def test_a_valid_verdict_is_asked_before_it_is_recorded(client, manual_order):
    page = client.post(url(manual_order), {"outcome": "failed", "reason": REASON})

    html = page.content.decode()
    assert page.status_code == 200 and 'id="confirmation"' in html
    assert f"Record order {manual_order.custno} as failed?" in html
    assert "does not count as spent" in html and "Top up again" in html
    assert REASON in html and "cannot be changed afterwards" in html
    assert f"CMCC_10 for {CMCC_NUMBER}, {manual_order.price} yuan" in html
    assert 'name="outcome" value="failed"' in html and 'name="confirmed" value="1"' in html
    manual_order.refresh_from_db()
    assert manual_order.state == OrderState.MANUAL
    assert not AuditEntry.objects.filter(action="order.manual_outcome").exists()


def test_the_answer_records_the_verdict_with_its_audit_entry(client, manual_order, operator):
    answer = client.post(url(manual_order), {"outcome": "success", "reason": REASON,
                                             "confirmed": "1"})

    assert answer.status_code == 302
    manual_order.refresh_from_db()
    assert manual_order.state == OrderState.SUCCESS and manual_order.settled_manually
    entry = AuditEntry.objects.get(app="topup", action="order.manual_outcome")
    assert entry.actor == operator and REASON in entry.summary


def test_success_says_the_price_counts_as_spent(client, manual_order):
    html = client.post(url(manual_order), {"outcome": "success", "reason": REASON}
                       ).content.decode()

    assert f"Record order {manual_order.custno} as succeeded?" in html
    assert "counts as spent in the daily report" in html


@pytest.mark.parametrize(("data", "field"), [
    ({"outcome": "success", "reason": "ok"}, "reason"),
    ({"outcome": "success", "reason": "    "}, "reason"),
    ({"outcome": "success", "reason": "x" * 1001}, "reason"),
    ({"outcome": "pending", "reason": REASON}, "outcome"),
    ({"reason": REASON}, "outcome"),
])
def test_a_bad_verdict_is_refused_before_any_question(client, manual_order, data, field):
    # Even with confirmed=1 (a replayed or forged answer), a bad form changes nothing.
    for extra in ({}, {"confirmed": "1"}):
        page = client.post(url(manual_order), {**data, **extra})
        assert page.status_code == 200 and 'id="confirmation"' not in page.content.decode()
        assert field in page.context["form"].errors
    manual_order.refresh_from_db()
    assert manual_order.state == OrderState.MANUAL


def test_an_order_settled_meanwhile_is_named_instead_of_asked(client, manual_order):
    move(manual_order.pk, OrderState.FAILED, message="callback")

    page = client.post(url(manual_order), {"outcome": "success", "reason": REASON})

    assert 'id="confirmation"' not in page.content.decode()
    assert "no longer waiting for confirmation; its state is now “Failed”" in " ".join(
        page.context["form"].errors["outcome"])
    manual_order.refresh_from_db()
    assert manual_order.state == OrderState.FAILED


def test_the_question_reads_in_chinese(client, manual_order):
    html = client.post(url(manual_order), {"outcome": "failed", "reason": REASON},
                       HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()

    assert f"将订单 {manual_order.custno} 记为失败？" in html
    assert "记为：失败" in html
