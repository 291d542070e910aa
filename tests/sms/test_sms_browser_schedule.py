"""In a real browser: scheduling a send from the send page, rescheduling it on the campaign
page, in English and in Simplified Chinese; nothing reaches the provider before the time."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from sms.models import Campaign, CampaignState
from tests.sms.conftest import preview_on_the_send_page, provider_report

SHANGHAI = ZoneInfo("Asia/Shanghai")


def schedule_from_the_send_page(page, live_server, template, start: str) -> None:
    preview_on_the_send_page(page, live_server, template)
    page.check("#id_when_1")  # "At a date and time"
    page.fill("#id_start_at", start)
    page.click("#send")
    page.wait_for_url(f"{live_server.url}/sms/campaigns/*/")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_staff_schedule_a_send_and_reschedule_it(
    page, live_server, staff_login, provider, sms_template
):
    template = sms_template()
    staff_login("operator", groups=("SMS operators",))
    tomorrow = timezone.now().astimezone(SHANGHAI) + timedelta(days=1)
    start = f"{tomorrow:%Y-%m-%d}T09:30"

    # A time in the past first: the field says so, and the Send button is there again.
    preview_on_the_send_page(page, live_server, template)
    page.check("#id_when_1")
    page.fill("#id_start_at", "2020-01-01T09:30")
    page.click("#send")
    page.wait_for_selector("[data-field=start_at] .errorlist")
    assert "The start time is in the past" in page.inner_text("[data-field=start_at] .errorlist")

    page.check("#id_when_1")
    page.fill("#id_start_at", start)
    page.click("#send")
    page.wait_for_url(f"{live_server.url}/sms/campaigns/*/")

    assert page.inner_text("#campaign-state") == "Scheduled"
    assert f"{tomorrow:%Y-%m-%d} 09:30" in page.inner_text("#scheduled-note")
    campaign = Campaign.objects.get(state=CampaignState.SCHEDULED)

    page.fill("#id_start_at", f"{tomorrow:%Y-%m-%d}T11:00")
    page.click("#reschedule-campaign")
    page.wait_for_selector("#scheduled-note")
    assert f"{tomorrow:%Y-%m-%d} 11:00" in page.inner_text("#scheduled-note")
    page.goto(f"{live_server.url}/sms/campaigns/?state=scheduled")
    assert f"{tomorrow:%Y-%m-%d} 11:00" in page.inner_text("table")

    campaign.refresh_from_db()
    assert campaign.scheduled_at == tomorrow.replace(hour=11, minute=0, second=0, microsecond=0)
    assert provider_report(provider) == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_scheduling_reads_in_simplified_chinese(
    page, live_server, staff_login, provider, sms_template
):
    template = sms_template()
    staff_login("operator", groups=("SMS operators",))
    page.context.add_cookies([{"name": "django_language", "value": "zh-hans",
                               "url": live_server.url}])
    tomorrow = timezone.now().astimezone(SHANGHAI) + timedelta(days=1)

    schedule_from_the_send_page(page, live_server, template, f"{tomorrow:%Y-%m-%d}T08:15")

    assert page.inner_text("#campaign-state") == "已定时"
    note = page.inner_text("#scheduled-note")
    assert f"群发将于 {tomorrow:%Y-%m-%d} 08:15（北京时间）开始" in note
    assert page.inner_text("#reschedule-campaign") == "改期"
    page.goto(f"{live_server.url}/sms/campaigns/")
    assert "开始时间" in page.inner_text("thead")
    assert provider_report(provider) == []
