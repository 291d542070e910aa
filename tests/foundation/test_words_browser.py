"""In a real browser, in English and in Chinese, staff pages say things in words (issue 29,
findings 14-17): the audit log names apps, actions and objects in the reader's language; the
service pages show no internal setting or address; top-up states are worded like every other
label; SMS and top-up refuse a bad mobile number with the same sentence, in the same style;
and the Chinese labels say what they mean (正在发送, 可用于发送, 中国移动, 今日成功)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from backoffice.security import audit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["en", "zh-hans"]


def sign_in(page: Any, live_server: Any, staff_login: Any, language: str) -> None:
    staff_login("root", superuser=True)
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])


AUDIT_WORDS = {
    "en": ("Content delivery", "Rule set saved", "Rule set #7 was saved."),
    "zh-hans": ("内容分发", "规则集已保存", "规则集 #7 已保存。"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_audit_log_says_every_entry_in_words(page, live_server, staff_login, language):
    from delivery.models import RuleSet

    sign_in(page, live_server, staff_login, language)
    # A rule set's entry as the service writes it (the model and its pk name the object).
    audit.record("delivery", "ruleset.save",
                         target=RuleSet(pk=7, name="main"),
                         summary="rule set 'main': 2 rules kept")
    page.goto(f"{live_server.url}/audit/?app=delivery")
    row = page.locator("#audit-entries tbody tr").first
    cells = row.locator("td").all_inner_texts()
    app, action, summary = AUDIT_WORDS[language]
    assert cells[3] == app
    assert cells[4] == action
    assert cells[6].startswith(summary)
    shown = page.locator("#audit-entries").inner_text()
    assert "ruleset" not in shown  # neither the action code nor the object type
    # The text as recorded is there, folded away, for whoever checks the evidence.
    assert not row.locator("details.recorded code").is_visible()
    row.locator("details.recorded summary").click()
    assert row.locator("details.recorded code").inner_text() == "rule set 'main': 2 rules kept"


@pytest.mark.parametrize("language", LANGUAGES)
def test_service_pages_show_no_internal_setting_or_address(page, live_server, staff_login,
                                                           settings, language):
    settings.PROVIDER = {**settings.PROVIDER,
                         "sms": {"api_url": "http://sms.internal:9001", "token": "t"},
                         "topup": {"traffic_url": "http://traffic.internal:9002",
                                   "appkey": "k", "appsecret": "s"}}
    sign_in(page, live_server, staff_login, language)
    for path in ("/sms/", "/topup/", "/media/"):
        page.goto(f"{live_server.url}{path}")
        text = page.locator("main").inner_text()
        for word in ("api_url", "traffic_url", "process_url", "http://", ".internal"):
            assert word not in text, (path, word)


STATE = {"en": "In progress", "zh-hans": "处理中"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_top_up_states_are_worded_like_every_label(page, live_server, staff_login, language):
    from topup.demo import load_products
    from topup.models import Order, OrderSource, OrderState, Product

    load_products()
    product = Product.objects.get(code="CMCC_10")
    Order.objects.create(
        custno="20261121000000000000abcdef01", mobile="13800138000", carrier="CMCC",
        product=product, prodcode=product.code, price=product.price, source=OrderSource.SINGLE,
        state=OrderState.PENDING, orderno="P0001", submitted_at=timezone.now())
    sign_in(page, live_server, staff_login, language)
    page.goto(f"{live_server.url}/topup/orders/")
    assert page.locator(".topup-state[data-state=pending]").inner_text() == STATE[language]


REFUSED = {
    "en": "“12345” is not a mainland China mobile number: it does not have 11 digits.",
    "zh-hans": "“12345”不是中国大陆手机号码：不是 11 位数字。",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_sms_and_top_up_refuse_a_bad_number_with_one_sentence_in_one_style(
        page, live_server, staff_login, language):
    from topup.demo import load_products

    load_products()
    sign_in(page, live_server, staff_login, language)
    page.goto(f"{live_server.url}/sms/suppression/add/")
    page.fill("#suppression-add-form input[name=mobile]", "12345")
    page.click("#add-number")
    sms_error = page.locator("#suppression-add-form .errorlist[role=alert] p")
    assert sms_error.all_inner_texts() == [REFUSED[language]]

    page.goto(f"{live_server.url}/topup/orders/new/")
    page.select_option("#topup-form select[name=product]", index=1)
    page.fill("#topup-form input[name=mobile]", "12345")
    page.click("#place-order")
    topup_error = page.locator("#topup-form [data-field=mobile] .errorlist[role=alert] p")
    assert topup_error.all_inner_texts() == [REFUSED[language]]
    # One style: the same colour and the same markup as SMS's.
    assert page.locator("#topup-form .errors").count() == 0


LABELS = {
    "en": ("Usable for sending", "China Mobile (CMCC)", "Today: succeeded"),
    "zh-hans": ("可用于发送", "中国移动", "今日成功"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_labels_say_what_they_mean(page, live_server, staff_login, language):
    from topup.demo import load_products

    load_products()
    sign_in(page, live_server, staff_login, language)
    usable, carrier, media_figure = LABELS[language]
    page.goto(f"{live_server.url}/sms/templates/")
    assert usable in page.locator("#templates thead").inner_text()
    page.goto(f"{live_server.url}/topup/orders/")
    options = page.locator("select[name=carrier] option").all_inner_texts()
    assert carrier in options
    assert not any("CMCC" in option for option in options) or language == "en"
    page.goto(f"{live_server.url}/")
    assert media_figure in page.locator("#tile-media dl.figures").inner_text()
    if language == "zh-hans":
        assert "：" not in page.locator("#tile-media dl.figures dt").first.inner_text()
