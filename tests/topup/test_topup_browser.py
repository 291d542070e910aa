"""The top-up pages in a real browser: the single top-up form narrows the products to the
number's carrier, the bulk run shows its report before charging, and the pages read in
Simplified Chinese."""

from __future__ import annotations

import re

import pytest

from tests.topup.conftest import CMCC_NUMBER, CTCC_NUMBER
from topup.models import BulkBatch, Order, OrderState

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("eager_tasks")]


def test_a_single_top_up_lists_only_the_numbers_carrier(page, live_server, staff_login,
                                                         topup_sandbox, products):
    staff_login("op", groups=("Top-up operators",))
    page.goto(f"{live_server.url}/topup/orders/new/")
    page.fill("#id_mobile", CTCC_NUMBER)
    page.wait_for_function(
        "() => document.getElementById('carrier-hint').textContent.includes('China Telecom')")
    visible = page.eval_on_selector_all(
        "#id_product option", "els => els.filter(o => o.value && !o.hidden).map(o => o.text)")
    assert visible and all(text.startswith("CTCC_") for text in visible)
    page.check("#id_allow_other_carrier")
    every = page.eval_on_selector_all(
        "#id_product option", "els => els.filter(o => o.value && !o.hidden).length")
    assert every == len(products)
    page.uncheck("#id_allow_other_carrier")
    page.select_option("#id_product", label=next(t for t in visible if t.startswith("CTCC_10")))
    page.click("#place-order")
    page.click("#confirm-action")
    page.wait_for_url(re.compile(r".*/topup/orders/[0-9a-f]{28}/$"))
    order = Order.objects.get()
    assert order.prodcode == "CTCC_10" and order.state == OrderState.PENDING
    assert page.locator("h1 [data-state=pending]").is_visible()
    assert page.locator("#timeline [data-kind=charge]").count() == 1


def test_a_bad_number_is_named_in_the_form(page, live_server, staff_login, products):
    staff_login("op", groups=("Top-up operators",))
    page.goto(f"{live_server.url}/topup/orders/new/")
    page.fill("#id_mobile", "1234")
    page.select_option("#id_product", index=1)
    page.click("#place-order")
    assert "is not a mainland China mobile number" in page.locator(
        "[data-field=mobile] .errorlist, .errorlist").first.inner_text()
    assert not Order.objects.exists()


def test_a_bulk_run_is_checked_then_confirmed(page, live_server, staff_login, topup_sandbox,
                                              products):
    staff_login("op", groups=("Top-up operators",))
    page.goto(f"{live_server.url}/topup/bulk/")
    page.set_input_files("#id_file", files=[{
        "name": "run.csv", "mimeType": "text/csv",
        "buffer": f"{CMCC_NUMBER},CMCC_10\n999,CMCC_10\n{CTCC_NUMBER},CTCC_30\n".encode()}])
    page.click("#bulk-upload button[type=submit]")
    page.wait_for_url(re.compile(r".*/topup/bulk/\d+/$"))
    assert page.inner_text("#problem-count") == "1"
    assert "999" in page.inner_text("#problems")
    assert topup_sandbox.orders() == []  # nothing charged before the confirmation
    page.click("#confirm-batch")
    # The confirmation page names the count and the total before anything is charged.
    assert page.inner_text("#confirm-question").startswith("Charge 2 top-ups of batch #")
    assert topup_sandbox.orders() == []
    page.click("#confirm-action")
    page.wait_for_selector("[data-status=confirmed]")
    assert BulkBatch.objects.get().status == "confirmed"
    assert sorted(o["prodcode"] for o in topup_sandbox.orders()) == ["CMCC_10", "CTCC_30"]


def test_the_pages_read_in_simplified_chinese(page, live_server, staff_login, products):
    staff_login("auditor", groups=("Auditors",))
    page.context.add_cookies([{"name": "django_language", "value": "zh-hans",
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/topup/")
    nav = page.inner_text(".topup-subnav")
    assert "订单" in nav and "余额" in nav and "Orders" not in nav
    page.goto(f"{live_server.url}/topup/manual/")
    assert "等待人工" in page.inner_text("h1")
