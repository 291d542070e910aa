"""Merchant API tokens: created and revoked by staff on a page, shown once, stored only as a
hash; expiry (90 days by default) and scopes; a per-token rate limit answering 429 with
Retry-After; refusals are JSON, and audited."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from backoffice.models import AuditEntry
from tests.topup.conftest import CMCC_NUMBER
from topup import services
from topup.api.docs import schema_document
from topup.models import ApiToken

pytestmark = pytest.mark.django_db

ORDERS = "/api/topup/orders/"


def bearer(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


def place(client: APIClient, idempotency: str = "erp-1"):
    return client.post(ORDERS, {"mobile": CMCC_NUMBER, "product": "CMCC_10"}, format="json",
                       HTTP_IDEMPOTENCY_KEY=idempotency)


@pytest.fixture
def page_client(operator) -> Client:
    client = Client()
    client.force_login(operator)
    return client


def test_a_token_made_on_the_page_is_shown_once_and_stored_as_a_hash(page_client, operator):
    created = page_client.post(reverse("topup:api_tokens"), {
        "name": "ERP", "scopes": ["orders:write", "orders:read"], "days": "90"})
    assert created.status_code == 302  # POST/redirect/GET: a reload makes no second token
    response = page_client.get(created["Location"])
    key = response.context["new_key"]
    assert key.startswith("mt_") and key in response.content.decode()
    assert response["Cache-Control"] == "no-store"
    token = ApiToken.objects.get()
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in str(ApiToken.objects.values().get())
    assert token.user == operator
    assert timedelta(days=89) < token.expires_at - timezone.now() <= timedelta(days=90)
    assert key not in page_client.get(reverse("topup:api_tokens")).content.decode()
    assert AuditEntry.objects.filter(action="api_token.create", actor=operator).exists()


def test_the_default_lifetime_is_ninety_days(operator):
    token, _key = services.create_token(user=operator, name="ERP", scopes=["orders:read"])
    assert timedelta(days=89) < token.expires_at - timezone.now() <= timedelta(days=90)


@pytest.mark.parametrize(("fields", "field"), [
    ({"name": "", "scopes": ["orders:read"], "days": "90"}, "name"),
    ({"name": "ERP", "days": "90"}, "scopes"),
    ({"name": "ERP", "scopes": ["orders:delete"], "days": "90"}, "scopes"),
    ({"name": "ERP", "scopes": ["orders:read"], "days": "0"}, "days"),
    ({"name": "ERP", "scopes": ["orders:read"], "days": "5000"}, "days"),
])
def test_a_bad_token_form_names_the_field_and_stores_nothing(page_client, fields, field):
    response = page_client.post(reverse("topup:api_tokens"), fields)
    assert response.status_code == 400
    assert field in response.context["form"].errors
    assert not ApiToken.objects.exists()


def test_an_auditor_sees_the_tokens_but_cannot_create_or_revoke(auditor, operator):
    token, _key = services.create_token(user=operator, name="ERP", scopes=["orders:read"])
    client = Client()
    client.force_login(auditor)
    assert client.get(reverse("topup:api_tokens")).status_code == 200
    assert client.post(reverse("topup:api_tokens"), {
        "name": "x", "scopes": ["orders:read"], "days": "1"}).status_code == 403
    assert client.post(reverse("topup:api_token_revoke", args=[token.pk]),
                       {"confirmed": "1"}).status_code == 403
    assert ApiToken.objects.count() == 1 and ApiToken.objects.get().revoked_at is None


def test_a_token_with_the_write_scope_places_an_order_as_its_staff_member(operator, products):
    _token, key = services.create_token(user=operator, name="ERP", scopes=["orders:write"])
    response = place(bearer(key))
    assert response.status_code == 201
    assert AuditEntry.objects.get(action="order.place").actor == operator


def test_a_token_without_the_scope_gets_403_with_a_reason_and_is_audited(operator, products):
    _token, key = services.create_token(user=operator, name="reader", scopes=["orders:read"])
    response = place(bearer(key))
    assert response.status_code == 403
    assert response.json()["reason"] == "missing_scope"
    assert "orders:write" in response.json()["detail"]
    refused = AuditEntry.objects.get(action="api_token.refused")
    assert refused.outcome == "refused" and "orders:write" in refused.summary


def test_a_revoked_token_gets_401_with_a_reason_and_is_audited(page_client, operator,
                                                               products):
    token, key = services.create_token(user=operator, name="ERP", scopes=["orders:write"])
    assert page_client.post(reverse("topup:api_token_revoke", args=[token.pk]),
                            {"confirmed": "1"}).status_code == 302
    response = place(bearer(key))
    assert response.status_code == 401
    assert response.json()["reason"] == "revoked_token"
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert AuditEntry.objects.filter(action="api_token.revoke").exists()
    assert AuditEntry.objects.get(action="api_token.refused").summary == "revoked_token"


def test_an_expired_token_gets_401_with_a_reason(operator, products):
    token, key = services.create_token(user=operator, name="ERP", scopes=["orders:write"])
    ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    response = place(bearer(key))
    assert (response.status_code, response.json()["reason"]) == (401, "expired_token")


def test_an_unknown_token_gets_401_counted_for_the_minutes_audit_entry(products):
    response = place(bearer("mt_" + "x" * 40))
    assert (response.status_code, response.json()["reason"]) == (401, "unknown_token")
    # Not one entry per attempt: the minute's count is audited when the minute is over
    # (tests/topup/test_topup_unknown_tokens.py).
    assert not AuditEntry.objects.filter(action="api_token.refused").exists()


def test_each_token_is_rate_limited_with_retry_after(operator, products, settings):
    settings.API_TOKEN_RATE_PER_MINUTE = 2
    _token, key = services.create_token(user=operator, name="ERP", scopes=["orders:read"])
    _other, other_key = services.create_token(user=operator, name="BI", scopes=["orders:read"])
    client = bearer(key)
    order_url = f"{ORDERS}NOPE/"
    assert [client.get(order_url).status_code for _ in range(2)] == [404, 404]
    limited = client.get(order_url)
    assert limited.status_code == 429
    assert 0 < int(limited["Retry-After"]) <= 60
    assert bearer(other_key).get(order_url).status_code == 404  # its own allowance


def test_the_openapi_document_describes_the_token_scheme():
    document = schema_document()
    scheme = document["components"]["securitySchemes"]["merchantToken"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    assert "orders:write" in scheme["description"]
    security = document["paths"]["/api/topup/orders/"]["post"]["security"]
    assert {"merchantToken": []} in security
