"""In a real browser: a single top-up asks first, as every other money action does, naming
the number, its carrier, the product and the price; "Go back" returns to the form with what
was typed; only the confirmation places the order."""

from __future__ import annotations

import re

import pytest

from tests.topup.conftest import CMCC_NUMBER
from topup.models import Order

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("eager_tasks")]

QUESTIONS = {
    "en": ("Top up 13800138000 (China Mobile (CMCC)) with CMCC_10 (10 MB) for 2.85 yuan?",
           "Top up for 2.85 yuan"),
    "zh-hans": ("为 13800138000（中国移动）充值 CMCC_10（10 MB），价格 2.85 元？",
                "充值，2.85 元"),
}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_single_top_up_names_number_carrier_product_and_price_before_charging(
        page, live_server, staff_login, topup_sandbox, products, language):
    staff_login("op", groups=("Top-up operators",))
    if language != "en":
        with page.expect_navigation():
            page.select_option("#language-select", language)
    page.goto(f"{live_server.url}/topup/orders/new/")
    page.fill("#id_mobile", CMCC_NUMBER)
    page.select_option("#id_product", value=str(products["CMCC_10"].pk))
    with page.expect_navigation():
        page.click("#place-order")

    question, button = QUESTIONS[language]
    assert page.locator("#confirm-question").inner_text() == question
    assert page.locator("#confirm-action").inner_text() == button
    assert not Order.objects.exists()  # nothing charged by the first click

    with page.expect_navigation():
        page.click("#confirm-back")  # the form again, as it was typed
    assert page.locator("#id_mobile").input_value() == CMCC_NUMBER
    assert page.locator("#id_product").input_value() == str(products["CMCC_10"].pk)
    assert not Order.objects.exists()

    with page.expect_navigation():
        page.click("#place-order")
    page.click("#confirm-action")
    page.wait_for_url(re.compile(r".*/topup/orders/[0-9a-f]{28}/$"))
    order = Order.objects.get()
    assert (order.mobile, order.prodcode) == (CMCC_NUMBER, "CMCC_10")
