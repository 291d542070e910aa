"""In a real browser, in English and in Chinese (issue 29, finding 11): the import report
counts lines and reasons apart (one line may have several reasons, so the two need not add
up, and the page says so), and names each number another campaign sent in the last day."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from sms.models import Campaign, Message

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "en": {"lines": "1 line will not be sent.", "note": "a line can have more than one",
           "sent_by": "13800138000, sent by campaign #{other}"},
    "zh-hans": {"lines": "1 行不会发送。", "note": "一行可能有多个原因",
                "sent_by": "13800138000，已由群发任务 #{other} 发送"},
}


def import_file(page, live_server, template, path: Path) -> None:
    page.goto(f"{live_server.url}/sms/import/")
    page.select_option("#id_template", str(template.pk))
    page.set_input_files("#id_file", str(path))
    page.click("#check-file")
    page.wait_for_selector("#import-report")


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_import_report_counts_lines_and_reasons_apart_and_names_numbers(
        page, live_server, staff_login, provider, sms_template, tmp_path, language):
    texts = TEXTS[language]
    template = sms_template("order")  # two variables
    staff_login("operator", groups=("SMS operators",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    first = tmp_path / "first.csv"
    first.write_text("13800138000,张三,A1\n", encoding="utf-8")
    import_file(page, live_server, template, first)
    earlier = Campaign.objects.get()
    # As if that campaign had sent its message an hour ago.
    Message.objects.filter(campaign=earlier).update(
        submitted_at=timezone.now() - timedelta(hours=1))

    second = tmp_path / "second.csv"
    # Line 2 has two reasons: a bad number and a missing variable.
    second.write_text("13800138000,李四,B2\n12345\n13900139000,王五,C3\n", encoding="utf-8")
    import_file(page, live_server, template, second)

    assert page.inner_text('[data-total="bad"]') == "1"
    assert page.inner_text("#bad-lines-count") == texts["lines"]
    assert texts["note"] in page.inner_text("#reasons-note")
    assert page.locator("#import-report ul.reasons li").count() == 2
    named = page.locator("#recently-sent-numbers li").all_inner_texts()
    assert named == [texts["sent_by"].format(other=earlier.pk)]
