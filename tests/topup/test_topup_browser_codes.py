"""Top-up codes read as words: the order page gives each code of the provider's table its
meaning and what to do, in English and Chinese; a code an operator must act on (514: our
address is not on the whitelist) is also named on the dashboard and in `/ready`, and goes
once a later answer is a success."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from tests.topup.conftest import CMCC_NUMBER
from topup.models import Order, OrderSource, OrderState
from topup.services import CODE_HELP as HELP

pytestmark = pytest.mark.django_db(transaction=True)

SPEC_CODES = (  # sms-and-topup.md, "Top-up codes"
    "200", "201", "410", "422", "430", "502", "503", "504", "505", "506", "507", "508", "509",
    "510", "511", "512", "513", "514", "515", "516", "517", "519", "520", "526", "527", "530",
    "531", "532", "533",
)
WORDS = {
    "en": ("Our server's address is not on the provider's whitelist.", "What to do:",
           "Needs an operator"),
    "zh-hans": ("我方服务器地址不在服务商的白名单中。", "处理方法：", "需要运维处理"),
}


def answered(products, code: str, custno: str, info: str = "") -> Order:
    product = products["CMCC_10"]
    return Order.objects.create(
        custno=custno, mobile=CMCC_NUMBER, product=product, prodcode=product.code,
        price=product.price, source=OrderSource.SINGLE, state=OrderState.FAILED,
        last_code=code, last_info=info, finished_at=timezone.now())


def test_every_code_of_the_table_has_a_meaning_and_what_to_do_in_both_languages():
    from django.utils import translation

    assert sorted(HELP) == sorted(SPEC_CODES)
    for language in ("en", "zh-hans"):
        with translation.override(language):
            for found in HELP.values():
                assert str(found.meaning) and str(found.action), found.code
    with translation.override("zh-hans"):
        untranslated = [code for code, found in HELP.items()
                        if str(found.meaning).isascii() or str(found.action).isascii()]
    assert untranslated == []


@pytest.mark.browser
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_514_is_explained_on_the_order_and_named_on_the_dashboard(
        page, live_server, staff_login, products, language):
    order = answered(products, "514", "c514", "IP not on whitelist")
    staff_login("op", groups=("Top-up operators",))
    if language != "en":
        with page.expect_navigation():
            page.select_option("#language-select", language)
    meaning, what_to_do, needs = WORDS[language]

    page.goto(f"{live_server.url}/topup/orders/{order.custno}/")
    code = page.locator(".topup-code[data-code='514']")
    assert meaning in code.inner_text() and what_to_do in code.inner_text()
    assert "IP not on whitelist" in code.inner_text()  # the provider's own words kept

    page.goto(f"{live_server.url}/")
    tile = page.locator("#tile-topup")
    assert needs in tile.inner_text() and meaning in tile.inner_text()

    answered(products, "200", "c200")  # a later success: the cause is gone
    page.reload()
    assert needs not in page.locator("#tile-topup").inner_text()


def test_ready_names_a_code_an_operator_must_act_on_without_failing(products, settings):
    settings.METRICS_TOKEN = "scrape-token"
    settings.PROVIDER = {**settings.PROVIDER, "topup": {"traffic_url": "http://x", "appkey": "k",
                                                       "appsecret": "s"}}
    client = Client(HTTP_AUTHORIZATION="Bearer scrape-token")
    answered(products, "519", "c519")

    answer = client.get("/ready").json()

    assert "topup.attention" in answer["degraded"]
    assert "topup.attention" not in answer["failed"]
    assert "519" in answer["checks"]["topup.attention"]["detail"]
    assert "appsecret" in answer["checks"]["topup.attention"]["detail"]
