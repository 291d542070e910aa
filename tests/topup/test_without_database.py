"""Our outage is a 503 (issue 28): while the database is unreachable, staff pages answer a
"back in a moment" page in the layout (English and Chinese), the merchant API and the
callback endpoint answer 503 JSON with Retry-After, a callback is not half-stored, and the
outage is logged once a minute, not as a traceback per request."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from backoffice.operations import once_a_minute
from tests.database_outage import database_unreachable
from tests.topup.conftest import CMCC_NUMBER
from topup import services
from topup.models import CallbackReceipt, Order

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_log_memory() -> None:
    once_a_minute.forget()


def test_staff_pages_answer_back_in_a_moment_in_the_layout(make_user, postgres, caplog):
    staff = Client(raise_request_exception=False)
    staff.force_login(make_user("op", "Top-up operators"))
    caplog.set_level(logging.INFO)
    with database_unreachable():
        answers = [staff.get(path) for path in ("/", "/topup/", "/sms/", "/topup/")]
        chinese = staff.get("/topup/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    for answer in answers:
        assert answer.status_code == 503 and answer["Retry-After"] == "30"
        page = answer.content.decode()
        assert "Back in a moment" in page and 'class="topbar"' in page
    assert chinese.status_code == 503 and "稍后" in chinese.content.decode()
    errors = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert len(errors) == 1 and "database unavailable" in errors[0].getMessage()
    assert not errors[0].exc_info  # one line, no traceback
    assert staff.get("/topup/").status_code == 200  # back


def test_the_api_answers_503_json_and_a_repeat_after_gets_one_order(
        operator, products, postgres):
    _token, key = services.create_token(user=operator, name="ERP", scopes=["orders:write"])
    api = APIClient(raise_request_exception=False)
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    body = {"mobile": CMCC_NUMBER, "product": "CMCC_10"}
    with database_unreachable():
        during = api.post("/api/topup/orders/", body, format="json",
                          HTTP_IDEMPOTENCY_KEY="erp-1")
    assert during.status_code == 503 and during["Retry-After"] == "30"
    assert during.json()["reason"] == "unavailable"
    after = api.post("/api/topup/orders/", body, format="json", HTTP_IDEMPOTENCY_KEY="erp-1")
    again = api.post("/api/topup/orders/", body, format="json", HTTP_IDEMPOTENCY_KEY="erp-1")
    assert (after.status_code, again.status_code) == (201, 200)
    assert Order.objects.count() == 1


def test_a_callback_during_the_outage_gets_503_and_is_not_half_stored(postgres):
    client = Client(raise_request_exception=False)
    payload: dict[str, Any] = {"code": "200", "custno": "C1", "info": "x", "orderno": "P",
                               "sign": "0" * 40}
    with database_unreachable():
        answer = client.post("/api/topup/callback/", payload, content_type="application/json")
    assert answer.status_code == 503 and answer["Retry-After"] == "30"
    assert answer.json() == {"info": "0", "error": "unavailable"}
    assert CallbackReceipt.objects.count() == 0
