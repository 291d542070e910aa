"""The order form lists every bad field at once; the order list exports what its filters
select as CSV; a failed order is topped up again as a new order, once, after a confirmation."""

from __future__ import annotations

import csv
import io

import pytest
from django.http import StreamingHttpResponse
from django.test import Client
from django.urls import reverse

from tests.topup.conftest import CMCC_NUMBER, CTCC_NUMBER
from topup import services
from topup.models import EventKind, Order, OrderSource, OrderState

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def placed(operator, mobile: str = CMCC_NUMBER, code: str = "CMCC_10") -> Order:
    return services.place_order(services.OrderRequest(mobile=mobile, product_code=code),
                                requested_by=operator, source=OrderSource.SINGLE)


def failed(order: Order) -> Order:
    Order.objects.filter(pk=order.pk).update(state=OrderState.FAILED, last_code="517")
    order.refresh_from_db()
    return order


# --- the form ------------------------------------------------------------------------------


def test_the_form_names_a_bad_mobile_even_before_a_product_is_picked(operator, products):
    response = signed_in(operator).post(reverse("topup:order_new"), {
        "mobile": "12345", "prodtime": 9, "prodstandard": 7})

    errors = response.context["form"].errors
    assert "not a mainland China mobile number" in " ".join(errors["mobile"])
    assert "required" in " ".join(errors["product"])
    assert "valid choice" in " ".join(errors["prodtime"])
    page = response.content.decode()
    assert "not a mainland China mobile number" in page and "This field is required." in page
    assert not Order.objects.exists()


def test_the_carrier_check_still_runs_once_every_field_is_valid(operator, products):
    response = signed_in(operator).post(reverse("topup:order_new"), {
        "mobile": CMCC_NUMBER, "product": products["CTCC_10"].pk, "prodtime": 1,
        "prodstandard": 7})

    assert "CMCC number" in " ".join(response.context["form"].errors["product"])


# --- the CSV export ------------------------------------------------------------------------


def exported(client: Client, **params: str) -> list[list[str]]:
    response = client.get(reverse("topup:order_csv"), params)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert isinstance(response, StreamingHttpResponse)
    body = b"".join(response.streaming_content).decode("utf-8")
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:])))


def test_the_csv_holds_the_orders_the_filters_select(operator, products):
    kept = placed(operator)
    failed(placed(operator, CTCC_NUMBER, "CTCC_10"))
    client = signed_in(operator)

    everything = exported(client)
    only_failed = exported(client, state="failed")
    by_product = exported(client, product=products["CMCC_10"].pk)
    by_mobile = exported(client, q=CMCC_NUMBER[-5:])

    assert everything[0][:3] == ["Order number", "Created at", "Mobile number"]
    assert len(everything) == 3
    assert [row[2] for row in only_failed[1:]] == [CTCC_NUMBER]
    # The label, then the code as stored.
    assert only_failed[1][6:8] == [str(OrderState.FAILED.label), "failed"]
    assert [row[0] for row in by_product[1:]] == [kept.custno]
    assert [row[0] for row in by_mobile[1:]] == [kept.custno]


def test_the_csv_is_in_the_reader_language(operator, products):
    placed(operator)
    response = signed_in(operator).get(reverse("topup:order_csv"),
                                       HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert isinstance(response, StreamingHttpResponse)
    lines = b"".join(response.streaming_content).decode("utf-8-sig").splitlines()
    assert lines[0].startswith("订单号,")
    assert "单笔充值" in lines[1]


def test_the_csv_guards_cells_a_spreadsheet_would_run(operator, products):
    order = placed(operator)
    Order.objects.filter(pk=order.pk).update(last_info="=HYPERLINK(\"x\")")

    rows = exported(signed_in(operator))

    assert rows[1][10] == "'=HYPERLINK(\"x\")"


def test_bad_filters_are_named_instead_of_exported(operator, products):
    response = signed_in(operator).get(reverse("topup:order_csv"),
                                       {"date_from": "2026-05-02", "date_to": "2026-05-01"})

    assert not response.streaming
    assert "before the start date" in " ".join(response.context["form"].errors["date_to"])


def test_the_order_list_links_its_export_with_the_filters(operator, products):
    page = signed_in(operator).get(reverse("topup:order_list"), {"state": "failed"})
    assert f'href="{reverse("topup:order_csv")}?state=failed"' in page.content.decode()


# --- top up again ---------------------------------------------------------------------------


def test_a_failed_order_is_topped_up_again_as_a_new_order(
    operator, products, django_capture_on_commit_callbacks
):
    old = failed(placed(operator))
    client = signed_in(operator)
    detail = client.get(reverse("topup:order_detail", args=[old.custno])).content.decode()
    assert reverse("topup:order_again", args=[old.custno]) in detail

    confirm = client.get(reverse("topup:order_again", args=[old.custno]))
    assert confirm.status_code == 200
    assert "a new order number" in confirm.content.decode()
    assert Order.objects.count() == 1  # asking is not placing

    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = client.post(reverse("topup:order_again", args=[old.custno]))

    new = Order.objects.exclude(pk=old.pk).get()
    assert response["Location"] == reverse("topup:order_detail", args=[new.custno])
    assert (new.mobile, new.prodcode, new.prodtime, new.prodstandard, new.state) == (
        old.mobile, old.prodcode, old.prodtime, old.prodstandard, OrderState.CREATED)
    assert new.custno != old.custno and len(queued) == 1
    old.refresh_from_db()
    assert old.state == OrderState.FAILED
    assert old.events.filter(kind=EventKind.NOTE, params__again=new.custno).exists()
    new_page = client.get(response["Location"]).content.decode()
    assert f"Top-up again of failed order {old.custno}." in new_page


def test_a_repeated_top_up_again_places_one_order(operator, products):
    old = failed(placed(operator))
    client = signed_in(operator)

    first = client.post(reverse("topup:order_again", args=[old.custno]))
    second = client.post(reverse("topup:order_again", args=[old.custno]))

    assert Order.objects.count() == 2
    assert first["Location"] == second["Location"]
    page = client.get(reverse("topup:order_detail", args=[old.custno])).content.decode()
    assert 'id="topped-up-again"' in page and 'id="top-up-again"' not in page


def test_only_a_failed_order_can_be_topped_up_again(operator, products):
    order = placed(operator)
    client = signed_in(operator)

    assert 'id="top-up-again"' not in client.get(
        reverse("topup:order_detail", args=[order.custno])).content.decode()
    response = client.post(reverse("topup:order_again", args=[order.custno]), follow=True)

    assert Order.objects.count() == 1
    assert "Only a failed order can be topped up again" in response.content.decode()


def test_a_product_gone_off_sale_is_named_instead_of_ordered(operator, products):
    old = failed(placed(operator))
    products["CMCC_10"].active = False
    products["CMCC_10"].save()

    response = signed_in(operator).post(reverse("topup:order_again", args=[old.custno]),
                                        follow=True)

    assert Order.objects.count() == 1
    assert "Product CMCC_10 is not on sale." in response.content.decode()


def test_an_auditor_cannot_top_up_again(operator, auditor, products):
    old = failed(placed(operator))
    client = signed_in(auditor)

    assert client.post(reverse("topup:order_again", args=[old.custno])).status_code == 403
    assert 'id="top-up-again"' not in client.get(
        reverse("topup:order_detail", args=[old.custno])).content.decode()
    assert Order.objects.count() == 1
