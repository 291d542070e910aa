"""Top-up use cases write the audit log: order placement (by a person or the API), manual
outcomes (refused ones too) and bulk confirmations, one entry per batch."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from backoffice.models import AuditEntry
from tests.topup.conftest import CMCC_NUMBER
from topup import services
from topup.models import OrderSource

pytestmark = pytest.mark.django_db


def test_an_order_placed_by_a_person_is_recorded_with_them(operator, products):
    order = services.place_order(
        services.OrderRequest(mobile=CMCC_NUMBER, product_code="CMCC_10"),
        requested_by=operator, source=OrderSource.SINGLE)
    saved = AuditEntry.objects.get(action="order.place")
    assert (saved.app, saved.actor, saved.object_id, saved.outcome) == (
        "topup", operator, str(order.pk), "ok")
    assert "CMCC_10" in saved.summary


def test_an_api_order_is_recorded_with_the_token_holder(operator, products):
    client = APIClient()
    _token, key = services.create_token(user=operator, name="ERP",
                                        scopes=["orders:write", "orders:read"])
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    response = client.post("/api/topup/orders/", {"mobile": CMCC_NUMBER, "product": "CMCC_10"},
                           format="json", HTTP_IDEMPOTENCY_KEY="erp-1")
    assert response.status_code == 201
    saved = AuditEntry.objects.get(action="order.place")
    assert saved.actor == operator and saved.address == "127.0.0.1"


def test_a_refused_manual_outcome_is_recorded_as_failed(operator, products):
    order = services.place_order(
        services.OrderRequest(mobile=CMCC_NUMBER, product_code="CMCC_10"),
        requested_by=operator, source=OrderSource.SINGLE)
    with pytest.raises(services.OrderInputError):
        services.confirm_manual(order.pk, "success", "Provider support said so", operator)
    saved = AuditEntry.objects.get(action="order.manual_outcome")
    assert (saved.actor, saved.object_id, saved.outcome) == (
        operator, f"order {order.pk}", "failed")


def test_a_bulk_confirmation_is_one_entry_not_one_per_row(operator, products):
    batch = services.check_upload(
        "topups.csv", f"{CMCC_NUMBER},CMCC_10\n{CMCC_NUMBER},CMCC_30\n".encode(), operator)
    assert services.confirm_batch(batch.pk, operator) == 2
    assert list(AuditEntry.objects.filter(app="topup")
                .values_list("action", "object_id", "outcome")) == [
        ("bulk.confirm", f"batch {batch.pk}", "ok")]
