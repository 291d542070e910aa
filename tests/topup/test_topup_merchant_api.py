"""The merchant API: token authentication, an idempotency key per intended top-up, clear
errors naming the field, permissions, and the OpenAPI schema and docs served by the app."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.topup.conftest import CMCC_NUMBER
from topup import services
from topup.models import Order, OrderSource

pytestmark = pytest.mark.django_db

ORDERS = "/api/topup/orders/"


def api(user, key: str | None = None) -> APIClient:
    client = APIClient()
    _token, key_ = services.create_token(user=user, name="ERP",
                                         scopes=["orders:write", "orders:read"])
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key_}")
    return client


def order_body(**overrides: object) -> dict[str, object]:
    return {"mobile": CMCC_NUMBER, "product": "CMCC_10", **overrides}


def test_a_token_holder_places_an_order(operator, products, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = api(operator).post(ORDERS, order_body(prodtime=0), format="json",
                                      HTTP_IDEMPOTENCY_KEY="erp-4711")
    assert response.status_code == 201
    data = response.json()
    order = Order.objects.get()
    assert data["custno"] == order.custno and data["state"] == "created"
    assert data["product"] == "CMCC_10" and data["prodtime"] == 0 and data["final"] is False
    assert order.source == OrderSource.API and order.requested_by == operator
    assert len(queued) == 1


def test_a_repeated_request_returns_the_same_order(operator, products):
    client = api(operator)
    first = client.post(ORDERS, order_body(), format="json", HTTP_IDEMPOTENCY_KEY="erp-1")
    again = client.post(ORDERS, order_body(), format="json", HTTP_IDEMPOTENCY_KEY="erp-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["custno"] == again.json()["custno"]
    assert Order.objects.count() == 1
    # Even once the product is off sale, the repeat still finds the order placed before.
    products["CMCC_10"].active = False
    products["CMCC_10"].save()
    assert client.post(ORDERS, order_body(), format="json",
                       HTTP_IDEMPOTENCY_KEY="erp-1").status_code == 200


def test_the_same_key_for_a_different_request_is_refused(operator, products):
    client = api(operator)
    client.post(ORDERS, order_body(), format="json", HTTP_IDEMPOTENCY_KEY="erp-2")
    response = client.post(ORDERS, order_body(product="CMCC_30"), format="json",
                           HTTP_IDEMPOTENCY_KEY="erp-2")
    assert response.status_code == 409
    assert "Idempotency-Key" in response.json()
    assert Order.objects.count() == 1


def test_keys_belong_to_their_user(operator, make_user, products):
    other = make_user("erp2", "Top-up operators")
    a = api(operator).post(ORDERS, order_body(), format="json", HTTP_IDEMPOTENCY_KEY="k")
    b = api(other).post(ORDERS, order_body(), format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert (a.status_code, b.status_code) == (201, 201)
    assert Order.objects.count() == 2


@pytest.mark.parametrize("key", [None, "", "has space", "x" * 101])
def test_a_missing_or_bad_idempotency_key_is_refused(operator, products, key):
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    response = api(operator).post(ORDERS, order_body(), format="json", **headers)
    assert response.status_code == 400 and "Idempotency-Key" in response.json()
    assert not Order.objects.exists()


@pytest.mark.parametrize("body,field,words", [
    ({"product": "CMCC_10"}, "mobile", "required"),
    (order_body(mobile="12345"), "mobile", "not a mainland China mobile number"),
    (order_body(product="NOPE_1"), "product", "Unknown product code"),
    (order_body(product="CUCC_20"), "product", "CMCC number"),
    (order_body(prodtime=5), "prodtime", "not a valid choice"),
    (order_body(prodstandard="all"), "prodstandard", "not a valid choice"),
])
def test_a_bad_request_names_the_field(operator, products, body, field, words):
    response = api(operator).post(ORDERS, body, format="json", HTTP_IDEMPOTENCY_KEY="bad-1")
    assert response.status_code == 400
    assert words in " ".join(response.json()[field])
    assert not Order.objects.exists()


def test_an_order_is_read_by_its_custno(operator, auditor, products):
    placed = api(operator).post(ORDERS, order_body(), format="json",
                                HTTP_IDEMPOTENCY_KEY="read-1").json()
    response = api(auditor).get(f"{ORDERS}{placed['custno']}/")
    assert response.status_code == 200 and response.json()["custno"] == placed["custno"]
    assert api(auditor).get(f"{ORDERS}NOSUCHORDER/").status_code == 404


def test_an_auditor_cannot_place_orders_and_strangers_cannot_read(auditor, make_user, products):
    response = api(auditor).post(ORDERS, order_body(), format="json", HTTP_IDEMPOTENCY_KEY="a")
    assert response.status_code == 403
    nobody = make_user("nobody")
    assert api(nobody).get(f"{ORDERS}X/").status_code == 403
    assert APIClient().post(ORDERS, order_body(), format="json",
                            HTTP_IDEMPOTENCY_KEY="a").status_code == 401
    assert not Order.objects.exists()


def test_a_browser_session_needs_its_csrf_token(operator, products):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(operator)
    response = client.post(ORDERS, order_body(), format="json", HTTP_IDEMPOTENCY_KEY="s-1")
    assert response.status_code == 403


def test_the_openapi_schema_documents_the_merchant_api(operator):
    response = api(operator).get("/api/topup/schema/?format=json")
    assert response.status_code == 200
    schema = response.json()
    assert set(schema["paths"]) == {"/api/topup/orders/", "/api/topup/orders/{custno}/"}
    create = schema["paths"]["/api/topup/orders/"]["post"]
    header = [p for p in create["parameters"] if p["in"] == "header"]
    assert header[0]["name"] == "Idempotency-Key" and header[0]["required"] is True
    assert {"200", "201", "400", "409"} <= set(create["responses"])
    assert set(schema["components"]["securitySchemes"]) == {"merchantToken", "cookieAuth"}
    assert APIClient().get("/api/topup/schema/").status_code == 401


def test_the_docs_page_renders_the_schema_for_staff(operator, make_user):
    client = Client()
    client.force_login(operator)
    page = client.get("/api/topup/docs/").content.decode()
    assert "/api/topup/orders/" in page and "Idempotency-Key" in page
    assert "allow_other_carrier" in page
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.get("/api/topup/docs/").status_code == 403
    assert Client().get("/api/topup/docs/").status_code == 302  # to the login page
