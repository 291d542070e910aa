"""In a real browser, in English and in Chinese (issue 29, finding 10): an order filter that
cannot be applied lists no order and says why, instead of listing every order under an error
(which reads as a filtered list)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from topup.demo import load_products
from topup.models import Order, OrderSource, OrderState, Product

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WHY = {"en": "No order is listed: correct the filter above first.",
       "zh-hans": "未列出任何订单：请先更正上面的筛选条件。"}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_an_invalid_filter_lists_nothing_and_says_why(page, live_server, staff_login,
                                                      language):
    load_products()
    product = Product.objects.get(code="CMCC_10")
    Order.objects.create(
        custno="20261121000000000000abcdef01", mobile="13800138000", carrier="CMCC",
        product=product, prodcode=product.code, price=product.price, source=OrderSource.SINGLE,
        state=OrderState.PENDING, orderno="P0001", submitted_at=timezone.now())
    staff_login("op", groups=("Top-up operators",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/topup/orders/")
    assert page.locator(".topup-orders tbody tr[data-custno]").count() == 1 or \
        "20261121000000000000abcdef01" in page.inner_text(".topup-orders")

    page.goto(f"{live_server.url}/topup/orders/?date_from=2026-02-01&date_to=2026-01-01")
    assert page.inner_text("#filter-invalid") == WHY[language]
    assert "20261121000000000000abcdef01" not in page.inner_text(".topup-orders")
    assert page.locator("#order-filters .errorlist p").count() == 1
