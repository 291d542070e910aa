"""The staff pages: what operators and auditors see and may do; every bad input answered with
a message naming the field; an auditor reads everything and changes nothing."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.topup.conftest import CMCC_NUMBER, CTCC_NUMBER
from topup import services
from topup.models import (
    BalanceSnapshot,
    BulkBatch,
    Order,
    OrderSource,
    OrderState,
    Product,
    ReconciliationReport,
)

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def order(products, operator) -> Order:
    return services.place_order(services.OrderRequest(mobile=CMCC_NUMBER,
                                                      product_code="CMCC_10"),
                                requested_by=operator, source=OrderSource.SINGLE)


def every_page(order: Order) -> list[str]:
    assert order.requested_by is not None
    batch = BulkBatch.objects.create(file_name="a.csv", uploaded_by=order.requested_by)
    ReconciliationReport.objects.create(day=timezone.localdate())
    return [
        reverse("topup:index"), reverse("topup:order_list"),
        reverse("topup:order_detail", args=[order.custno]), reverse("topup:manual_queue"),
        reverse("topup:bulk_index"), reverse("topup:bulk_detail", args=[batch.pk]),
        reverse("topup:balance"), reverse("topup:report_list"),
        reverse("topup:report_detail", args=[timezone.localdate().isoformat()]),
        reverse("topup:product_list"), "/api/topup/docs/",
    ]


@pytest.mark.parametrize("who", ["operator", "auditor"])
def test_operators_and_auditors_read_every_page(request, order, who):
    client = signed_in(request.getfixturevalue(who))
    for url in every_page(order):
        response = client.get(url)
        assert response.status_code == 200, url


def test_staff_without_the_top_up_role_see_nothing(order, make_user):
    client = signed_in(make_user("sms-only", "SMS operators"))
    for url in every_page(order):
        assert client.get(url).status_code == 403, url


def test_an_auditor_changes_nothing(order, auditor, products):
    client = signed_in(auditor)
    Order.objects.filter(pk=order.pk).update(state=OrderState.MANUAL)
    posts = [
        (reverse("topup:order_new"), {"mobile": CMCC_NUMBER, "product": products["CMCC_10"].pk,
                                      "prodtime": 1, "prodstandard": 7}),
        (reverse("topup:order_check", args=[order.custno]), {}),
        (reverse("topup:manual_confirm", args=[order.custno]),
         {"outcome": "success", "reason": "looks fine to me"}),
        (reverse("topup:balance_refresh"), {}),
        (reverse("topup:report_run"), {"day": timezone.localdate().isoformat()}),
        (reverse("topup:product_new"), {"code": "CMCC_5", "carrier": "CMCC", "size_mb": 5,
                                        "price": "1.00", "active": "on"}),
        (reverse("topup:product_edit", args=[products["CMCC_10"].pk]),
         {"code": "CMCC_10", "carrier": "CMCC", "size_mb": 10, "price": "0.01"}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    assert client.get(reverse("topup:order_new")).status_code == 403
    assert Order.objects.count() == 1 and Order.objects.get().state == OrderState.MANUAL
    assert Product.objects.get(code="CMCC_10").price == Decimal("2.85")
    assert not Product.objects.filter(code="CMCC_5").exists()
    assert not BalanceSnapshot.objects.exists() and not ReconciliationReport.objects.exists()
    # The buttons are not even offered.
    page = client.get(reverse("topup:order_detail", args=[order.custno])).content.decode()
    assert "check-now" not in page and 'name="reason"' not in page


def test_a_single_top_up_is_placed_from_the_form(operator, products,
                                                 django_capture_on_commit_callbacks):
    client = signed_in(operator)
    fields = {"mobile": "+86 138 0013 8000", "product": products["CMCC_30"].pk,
              "prodtime": 0, "prodstandard": 3}
    question = client.post(reverse("topup:order_new"), fields)
    assert question.status_code == 200 and not Order.objects.exists()  # asked first
    assert "Top up 13800138000 (China Mobile (CMCC)) with CMCC_30" in question.content.decode()
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = client.post(reverse("topup:order_new"), {**fields, "confirmed": "1"})
    order = Order.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("topup:order_detail", args=[order.custno])
    assert (order.mobile, order.prodcode, order.prodtime, order.prodstandard) == (
        CMCC_NUMBER, "CMCC_30", 0, 3)
    assert order.requested_by == operator and len(queued) == 1


@pytest.mark.parametrize("data,field,words", [
    ({"mobile": "12345"}, "mobile", "not a mainland China mobile number"),
    ({"mobile": ""}, "mobile", "required"),
    ({"product": "CUCC_20"}, "product", "CMCC number"),
    ({"product": "CMCC_30-off"}, "product", "valid choice"),
    ({"prodtime": 9}, "prodtime", "valid choice"),
])
def test_the_single_top_up_form_names_the_bad_field(operator, products, data, field, words):
    form = {"mobile": CMCC_NUMBER, "product": products["CMCC_10"].pk, "prodtime": 1,
            "prodstandard": 7}
    if data.get("product") == "CUCC_20":
        data = {"product": products["CUCC_20"].pk}
    if data.get("product") == "CMCC_30-off":
        products["CMCC_30"].active = False
        products["CMCC_30"].save()
        data = {"product": products["CMCC_30"].pk}
    form.update(data)
    response = signed_in(operator).post(reverse("topup:order_new"), form)
    assert response.status_code == 200
    assert words in " ".join(response.context["form"].errors[field])
    assert not Order.objects.exists()


def test_another_carriers_product_is_allowed_for_a_moved_number(operator, products):
    response = signed_in(operator).post(reverse("topup:order_new"), {
        "mobile": CMCC_NUMBER, "product": products["CTCC_10"].pk, "prodtime": 1,
        "prodstandard": 7, "allow_other_carrier": "on", "confirmed": "1"})
    assert response.status_code == 302
    assert Order.objects.get().carrier == "CMCC"


def test_the_carrier_lookup_lists_that_carriers_products(operator, products):
    client = signed_in(operator)
    data = client.get(reverse("topup:carrier_lookup"), {"mobile": CTCC_NUMBER}).json()
    assert data["carrier"] == "CTCC"
    assert sorted(p["code"] for p in data["products"]) == ["CTCC_10", "CTCC_30"]
    bad = client.get(reverse("topup:carrier_lookup"), {"mobile": "abc"})
    assert bad.status_code == 400 and bad.json()["field"] == "mobile"


def test_the_order_list_filters(operator, products):
    client = signed_in(operator)
    for mobile, code in ((CMCC_NUMBER, "CMCC_10"), (CTCC_NUMBER, "CTCC_10")):
        services.place_order(services.OrderRequest(mobile=mobile, product_code=code),
                             requested_by=operator, source=OrderSource.SINGLE)
    Order.objects.filter(carrier="CTCC").update(state=OrderState.FAILED)
    old = Order.objects.get(carrier="CMCC")
    Order.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=3))

    def listed(**params: str) -> list[str]:
        page = client.get(reverse("topup:order_list"), params).context["page"]
        return [o.prodcode for o in page.object_list]

    assert sorted(listed()) == ["CMCC_10", "CTCC_10"]
    assert listed(state="failed") == ["CTCC_10"]
    assert listed(carrier="CMCC") == ["CMCC_10"]
    assert listed(q=CTCC_NUMBER[-6:]) == ["CTCC_10"]
    assert listed(product=products["CMCC_10"].pk) == ["CMCC_10"]
    assert listed(date_from=timezone.localdate().isoformat()) == ["CTCC_10"]
    response = client.get(reverse("topup:order_list"), {"date_from": "2026-05-02",
                                                        "date_to": "2026-05-01"})
    assert "before the start date" in " ".join(response.context["form"].errors["date_to"])


def test_the_order_page_shows_the_whole_timeline(topup_sandbox, order, operator):
    services.submit_order(order.pk)
    topup_sandbox.advance(10)
    client = signed_in(operator)
    client.post(reverse("topup:order_check", args=[order.custno]))
    page = client.get(reverse("topup:order_detail", args=[order.custno])).content.decode()
    for words in ("Order placed.", "chargeOrder answered code 200.",
                  "seekOrder around", "The provider confirmed the top-up."):
        assert words in page
    assert 'data-state="success"' in page


def test_the_timeline_reads_in_chinese(topup_sandbox, order, operator):
    services.submit_order(order.pk)
    client = signed_in(operator)
    page = client.get(reverse("topup:order_detail", args=[order.custno]),
                      HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "chargeOrder answered code" not in page
    assert "订单" in page


def test_the_balance_page_draws_the_history(operator):
    now = timezone.now()
    for hours, amount in ((30, "100.00"), (20, "90.00"), (2, "80.50")):
        snapshot = BalanceSnapshot.objects.create(balance=Decimal(amount), freeze=Decimal("0"),
                                                  avail_balance=Decimal(amount), source="staff")
        BalanceSnapshot.objects.filter(pk=snapshot.pk).update(
            taken_at=now - timedelta(hours=hours))
    page = signed_in(operator).get(reverse("topup:balance"), {"days": 7}).content.decode()
    assert "<svg" in page and page.count("<circle") == 6  # 3 points x (balance, available)
    assert "80.50" in page
    empty = signed_in(operator).get(reverse("topup:balance"), {"days": "x"}).content.decode()
    assert "<svg" in empty


def test_staff_refresh_the_balance(topup_sandbox, operator):
    response = signed_in(operator).post(reverse("topup:balance_refresh"), follow=True)
    assert "1000.00" in response.content.decode()
    assert BalanceSnapshot.objects.get().source == "staff"


def test_a_provider_failure_is_shown_not_crashed(topup_sandbox, operator):
    topup_sandbox.fault(path="/getMyBalance", action="status", status=500, times=2)
    response = signed_in(operator).post(reverse("topup:balance_refresh"), follow=True)
    assert response.status_code == 200
    assert "could not be asked" in response.content.decode()


def test_a_product_is_edited_with_checked_values(operator, products):
    client = signed_in(operator)
    url = reverse("topup:product_edit", args=[products["CMCC_10"].pk])
    bad = client.post(url, {"code": "CMCC_10", "carrier": "CUCC", "size_mb": 20,
                            "price": "0", "active": "on"})
    errors = bad.context["form"].errors
    assert set(errors) == {"carrier", "size_mb", "price"}
    good = client.post(url, {"code": "CMCC_10", "carrier": "CMCC", "size_mb": 10,
                             "price": "2.90", "active": "on"})
    assert good.status_code == 302
    assert Product.objects.get(code="CMCC_10").price == Decimal("2.90")
    new = client.post(reverse("topup:product_new"), {"code": "VIP-PACK", "carrier": "CTCC",
                                                      "size_mb": 500, "price": "20.00"})
    assert new.status_code == 302 and not Product.objects.get(code="VIP-PACK").active


def test_the_home_page_keeps_the_provider_connection_card(topup_sandbox, order, operator):
    services.submit_order(order.pk)
    page = signed_in(operator).get(reverse("topup:index")).content.decode()
    assert "Provider connection" in page and 'data-contact="ok"' in page
    assert order.custno in page and 'data-state-count="pending">1<' in page
