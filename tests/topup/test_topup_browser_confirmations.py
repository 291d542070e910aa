"""In a real browser, in English and in Chinese: charging a bulk batch and discarding it open
the confirmation page, which says how many top-ups and how much before anything is charged."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.topup.conftest import CMCC_NUMBER, CTCC_NUMBER
from topup.models import BatchStatus, BulkBatch

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("eager_tasks")]

WORDING = {
    "en": ("Charge 2 top-ups of batch #{id}, 7.60 yuan in all?", "Charge 2 top-ups",
           "Discard batch #{id} and its 2 valid rows?"),
    "zh-hans": ("为批次 #{id} 充值 2 笔，共 7.60 元？", "充值 2 笔",
                "放弃批次 #{id} 及其 2 个有效行？"),
}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_charging_and_discarding_a_batch_are_confirmed(page: Any, live_server: Any,
                                                       staff_login: Any, topup_sandbox: Any,
                                                       products: Any, language: str) -> None:
    staff_login("op", groups=("Top-up operators",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    charge, button, discard = WORDING[language]
    page.goto(f"{live_server.url}/topup/bulk/")
    page.set_input_files("#id_file", files=[{
        "name": "run.csv", "mimeType": "text/csv",
        "buffer": f"{CMCC_NUMBER},CMCC_10\n{CTCC_NUMBER},CTCC_30\n".encode()}])
    page.click("#bulk-upload button[type=submit]")
    page.wait_for_url(re.compile(r".*/topup/bulk/\d+/$"))
    batch = BulkBatch.objects.get()

    page.click("#confirm-batch")
    assert page.inner_text("#confirm-question") == charge.format(id=batch.pk)
    assert page.inner_text("#confirm-action") == button
    page.click("#confirm-back")
    page.wait_for_selector("#discard-batch")
    page.click("#discard-batch")
    assert page.inner_text("#confirm-question") == discard.format(id=batch.pk)
    page.click("#confirm-action")
    page.wait_for_selector("[data-status=discarded]")
    assert BulkBatch.objects.get().status == BatchStatus.DISCARDED
    assert topup_sandbox.orders() == []


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_manual_verdict_is_asked_after_the_form_is_valid(page: Any, live_server: Any,
                                                           staff_login: Any, products: Any,
                                                           language: str) -> None:
    from topup import services
    from topup.models import Order, OrderSource, OrderState

    order = services.place_order(services.OrderRequest(mobile=CMCC_NUMBER,
                                                       product_code="CMCC_10"),
                                 requested_by=None, source=OrderSource.SINGLE)
    Order.objects.filter(pk=order.pk).update(state=OrderState.MANUAL)
    staff_login("op", groups=("Top-up operators",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    question = {"en": f"Record order {order.custno} as failed?",
                "zh-hans": f"将订单 {order.custno} 记为失败？"}[language]
    page.goto(f"{live_server.url}/topup/orders/{order.custno}/confirm/")
    page.check("input[name=outcome][value=failed]")
    page.fill("textarea[name=reason]", "ok")
    page.click("#manual-form button[type=submit]")
    page.wait_for_selector("#manual-form .errorlist")
    assert page.locator("#confirmation").count() == 0

    page.fill("textarea[name=reason]", "Provider support, ticket 4711")
    page.click("#manual-form button[type=submit]")
    assert page.inner_text("#confirm-question") == question
    page.click("#confirm-back")
    page.wait_for_selector("#manual-form")
    assert Order.objects.get(pk=order.pk).state == OrderState.MANUAL

    page.check("input[name=outcome][value=failed]")
    page.fill("textarea[name=reason]", "Provider support, ticket 4711")
    page.click("#manual-form button[type=submit]")
    page.click("#confirm-action")
    page.wait_for_url(f"{live_server.url}/topup/manual/")
    assert Order.objects.get(pk=order.pk).state == OrderState.FAILED
