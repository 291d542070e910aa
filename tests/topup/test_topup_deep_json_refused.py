"""JSON nested 100,000 deep is a 400 naming the problem on the merchant API and the callback
endpoint, never a 500 with a traceback."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from topup import services
from topup.models import CallbackReceipt, Order, ReceiptOutcome

pytestmark = pytest.mark.django_db

DEEP = ("[" * 100_000 + "]" * 100_000).encode()


def test_the_merchant_api_answers_deep_json_with_a_400_naming_the_depth(operator):
    _token, key = services.create_token(user=operator, name="ERP", scopes=["orders:write"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    response = client.post("/api/topup/orders/", data=DEEP, content_type="application/json",
                           HTTP_IDEMPOTENCY_KEY="deep-1")
    assert response.status_code == 400
    assert "nested deeper than 64 levels" in response.json()["detail"]
    assert not Order.objects.exists()


def test_the_callback_endpoint_keeps_a_deep_body_as_malformed_with_a_400(client):
    response = client.post("/api/topup/callback/", data=DEEP[:16_000],
                           content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"info": "0", "error": "malformed"}
    receipt = CallbackReceipt.objects.get()
    assert receipt.outcome == ReceiptOutcome.MALFORMED and receipt.sign_valid is False
    assert "nested deeper than 64 levels" in receipt.error
