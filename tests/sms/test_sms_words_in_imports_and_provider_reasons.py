"""Values inside an import file are checked against the merchant's word list: the import
report names the line and the word (in a real browser, in English and Chinese). A word the
provider itself refuses is named in its reason, not hidden behind the generic refusal."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from sms.models import BlockedWord, Campaign, Template
from tests.sms.conftest import DRAFTS, control
from tests.sms.test_sms_browser_import_report_counts import import_file

REPORT = {
    "en": ("The value of {$var2} contains “违禁词”, which is on the merchant's word list",
           "word on the word list: 1 time"),
    "zh-hans": ("{$var2} 的值含有商户禁用词列表中的“违禁词”", "含禁用词：1 次"),
}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_an_import_line_whose_value_holds_a_listed_word_is_named_in_the_report(
        page, live_server, staff_login, provider, sms_template, tmp_path, language):
    reason, label = REPORT[language]
    template = sms_template("order")  # two variables
    BlockedWord.objects.create(word="违禁词")
    staff_login("operator", groups=("SMS operators",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    source = tmp_path / "orders.csv"
    source.write_text("13800138000,张三,A1\n13900139000,李四,含违禁词的订单\n",
                      encoding="utf-8")

    import_file(page, live_server, template, source)

    assert page.inner_text('[data-total="numbers"]') == "1"
    assert page.inner_text('[data-total="bad"]') == "1"
    row = page.locator('#bad-lines tr[data-line="2"]')
    assert reason in row.inner_text()
    assert label in page.inner_text("#import-report ul.reasons")
    campaign = Campaign.objects.get()
    assert list(campaign.messages.values_list("mobile", flat=True)) == ["13800138000"]


REFUSED = {
    "en": "The provider refuses “禁语” in the content: a word it does not allow to be sent.",
    "zh-hans": "服务商拒绝内容中的“禁语”：这是不允许发送的词语。",
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_word_the_provider_refuses_is_named_in_the_refusal(
        operator_client, provider, language):
    control(provider, "POST", "/sms/words", {"words": ["禁语"]})
    operator_client.cookies["django_language"] = language

    response = operator_client.post(reverse("sms:template_create"),
                                    {**DRAFTS["code"], "content": "您的验证码是{$var1}，禁语。"})

    assert response.status_code == 200
    assert REFUSED[language] in unescape(response.content.decode())
    assert not Template.objects.exists()
