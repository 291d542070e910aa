"""In a real browser: the merchant's word list is kept on its own page (a pasted list imported,
a too-long line named, a word taken off after a question), every change audited; a template
holding a listed word is refused at the form, naming the word and the field, and nothing
reaches the provider."""

from __future__ import annotations

import pytest

from backoffice.models import AuditEntry
from sms.models import BlockedWord, Template

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": ("2 words added to the list (0 already on it).", "Line 2: a word has at most 64",
           "The content contains “违禁词”, which is on the merchant's word list"),
    "zh-hans": ("已向列表添加 2 个词语（0 个已在列表中）。", "第 2 行：词语最多 64",
                "内容含有商户禁用词列表中的“违禁词”"),
}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_word_list_is_kept_on_its_page_and_refuses_a_template(
        page, live_server, staff_login, provider, language):
    staff_login("templates", groups=("SMS operators",))
    if language != "en":
        with page.expect_navigation():
            page.select_option("#language-select", language)
    added, too_long, refused = WORDS[language]
    page.goto(f"{live_server.url}/sms/words/")

    page.fill("#id_words", "违禁词\n" + "长" * 65 + "\n")
    with page.expect_navigation():
        page.click("#words-add")
    assert too_long in page.locator("#words-errors").inner_text()
    assert not BlockedWord.objects.exists()  # a bad line: nothing imported

    page.fill("#id_words", "违禁词\n\nSpam\nspam\n")
    with page.expect_navigation():
        page.click("#words-add")
    assert added in page.locator(".messages").inner_text()
    assert sorted(BlockedWord.objects.values_list("word", flat=True)) == ["Spam", "违禁词"]

    page.goto(f"{live_server.url}/sms/templates/new/")
    page.fill("#id_title", "通知")
    page.fill("#id_temp_sign", "示例商城")
    page.fill("#id_content", "本店有违禁词{$var1}出售")
    with page.expect_navigation():
        page.click("#save-template")
    assert refused in page.locator(".errorlist").first.inner_text()
    assert not Template.objects.exists()

    page.goto(f"{live_server.url}/sms/words/")
    with page.expect_navigation():
        page.click("tr[data-word='Spam'] [data-action=remove]")
    with page.expect_navigation():
        page.click("#confirm-action")
    assert list(BlockedWord.objects.values_list("word", flat=True)) == ["违禁词"]
    assert sorted(AuditEntry.objects.filter(app="sms").values_list("action", flat=True)) == [
        "template.create", "words.add", "words.remove"]


def test_an_auditor_reads_the_list_but_cannot_change_it(auditor_client):
    BlockedWord.objects.create(word="违禁词")
    assert auditor_client.get("/sms/words/").status_code == 200
    assert auditor_client.post("/sms/words/", {"words": "新词"}).status_code == 403
    word = BlockedWord.objects.get()
    assert auditor_client.post(f"/sms/words/{word.pk}/remove/",
                               {"confirmed": "1"}).status_code == 403
    assert list(BlockedWord.objects.values_list("word", flat=True)) == ["违禁词"]
