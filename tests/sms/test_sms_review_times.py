"""The provider's review time, said when a template is submitted (sms-and-topup.md): vip
1-3 hours on working days; general 4-5 working days, or 1-3 hours when the signature is
already filed. Working time runs Monday to Friday; a weekend stops the clock."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from sms.services.review_time import add_working_time, expected_review
from tests.sms.conftest import local_template

SHANGHAI = ZoneInfo("Asia/Shanghai")


def at(day: int, hour: int) -> datetime:
    return datetime(2026, 11, day, hour, 0, tzinfo=SHANGHAI)  # 2026-11-23 is a Monday


@pytest.mark.parametrize(("start", "span", "end"), [
    (at(23, 10), timedelta(hours=3), at(23, 13)),  # Monday: plain hours
    (at(27, 23), timedelta(hours=3), at(30, 2)),  # Friday night runs on into Monday
    (at(28, 10), timedelta(hours=3), at(30, 3)),  # Saturday: the clock starts Monday
    (at(27, 23), timedelta(days=5), datetime(2026, 12, 4, 23, tzinfo=SHANGHAI)),
    (at(29, 12), timedelta(days=5), datetime(2026, 12, 5, 0, tzinfo=SHANGHAI)),  # Sunday
])
def test_working_time_skips_weekends(start, span, end):
    assert add_working_time(start, span) == end


@pytest.mark.django_db
def test_a_new_general_signature_takes_five_working_days_and_a_filed_one_three_hours():
    draft = local_template(provider_id=1, report_type="general", temp_sign="新商城",
                           status="review")
    expected = expected_review(draft, at(23, 10))
    assert (expected.kind, expected.expected_by) == ("new_signature", at(30, 10))

    local_template(provider_id=2, report_type="general", temp_sign="新商城", status="success")
    expected = expected_review(draft, at(23, 10))
    assert (expected.kind, expected.expected_by) == ("filed", at(23, 13))


@pytest.mark.django_db
def test_the_vip_channel_takes_three_working_hours():
    vip = local_template(provider_id=3, report_type="vip", status="review")
    assert expected_review(vip, at(28, 10)).expected_by == at(30, 3)


WORDS = {
    "en": "review takes 1 to 3 hours on working days: expected by",
    "zh-hans": "审核在工作日需要 1 至 3 小时：预计",
}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_expected_review_time_is_said_at_submission(page, live_server, staff_login,
                                                        provider, language):
    staff_login("templates", groups=("SMS operators",))
    if language != "en":
        with page.expect_navigation():
            page.select_option("#language-select", language)
    page.goto(f"{live_server.url}/sms/templates/new/")
    page.fill("#id_title", "验证码")
    page.fill("#id_temp_sign", "示例商城")
    page.fill("#id_content", "您的验证码是{$var1}，10分钟内有效。")
    page.select_option("#id_report_type", "vip")
    with page.expect_navigation():
        page.click("#save-template")

    said = page.locator(".messages").inner_text()
    assert WORDS[language] in said
    assert "Asia/Shanghai" in said
