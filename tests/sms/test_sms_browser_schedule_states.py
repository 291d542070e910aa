"""In a real browser, in English and in Chinese (issue 29, findings 7-9): the confirm form's
button says "Schedule for N numbers" once a time is chosen, with Discard beside it; a marketing
campaign scheduled outside the sending window is warned about in the form and on the campaign
page, naming when its first message really goes out; a scheduled campaign that has sent
nothing says "not started" and offers "Cancel" alone, without progress figures."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from sms.models import Campaign, CampaignState
from tests.sms.conftest import preview_on_the_send_page, provider_report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHANGHAI = ZoneInfo("Asia/Shanghai")

TEXTS = {
    "en": {"send": "Send to 2 numbers", "schedule": "Schedule for 2 numbers",
           "discard": "Discard", "wait": "the first message goes out at {day} 08:00",
           "not_started": "Not started", "cancel": "Cancel"},
    "zh-hans": {"send": "发送给 2 个号码", "schedule": "定时发送给 2 个号码", "discard": "放弃",
                "wait": "第一条短信将于 {day} 08:00", "not_started": "尚未开始",
                "cancel": "取消"},
}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_scheduling_outside_the_window_is_named_and_a_scheduled_campaign_is_not_started(
        page, live_server, staff_login, provider, sms_template, settings, language):
    settings.SMS_MARKETING_WINDOW = "08:00-21:00"
    texts = TEXTS[language]
    template = sms_template("plain")
    staff_login("operator", groups=("SMS operators",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    preview_on_the_send_page(page, live_server, template)
    draft = Campaign.objects.get(state=CampaignState.DRAFT)
    page.goto(f"{live_server.url}/sms/campaigns/{draft.pk}/")

    button = page.locator("#confirm-campaign")
    assert button.inner_text() == texts["send"]
    beside = page.locator("#confirm-form .form-buttons button").all_inner_texts()
    assert beside == [texts["send"], texts["discard"]]

    tomorrow = timezone.now().astimezone(SHANGHAI) + timedelta(days=1)
    day_after = tomorrow + timedelta(days=1)
    page.check("#id_when_1")
    assert button.inner_text() == texts["schedule"]
    page.fill("#id_start_at", f"{tomorrow:%Y-%m-%d}T22:30")
    warning = page.locator("#confirm-form .window-wait")
    assert warning.is_visible()
    assert texts["wait"].format(day=f"{day_after:%Y-%m-%d}") in warning.inner_text()
    page.fill("#id_start_at", f"{tomorrow:%Y-%m-%d}T10:00")
    assert not warning.is_visible()  # inside the window: nothing to warn about
    page.fill("#id_start_at", f"{tomorrow:%Y-%m-%d}T22:30")

    button.click()
    page.wait_for_selector("#scheduled-note")
    assert texts["wait"].format(day=f"{day_after:%Y-%m-%d}") in page.inner_text("#window-wait")
    assert texts["not_started"] in page.inner_text("#not-started")
    assert page.locator("#campaign-progress-card").count() == 0
    assert page.locator("#campaign-schedule .actions button").all_inner_texts() == [
        texts["cancel"]]
    assert provider_report(provider) == []


QUEUED_TEXTS = {
    "en": {"heading": "Queued", "not_started": "Not started", "cancel": "Cancel"},
    "zh-hans": {"heading": "排队中", "not_started": "尚未开始", "cancel": "取消"},
}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_queued_campaign_that_has_sent_nothing_is_not_started_with_cancel_alone(
        page, live_server, staff_login, provider, sms_template, language):
    texts = QUEUED_TEXTS[language]
    template = sms_template("plain")
    staff_login("operator", groups=("SMS operators",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    preview_on_the_send_page(page, live_server, template)
    campaign = Campaign.objects.get(state=CampaignState.DRAFT)
    # Confirmed, waiting for a worker to pick it up: nothing handed to the provider yet.
    Campaign.objects.filter(pk=campaign.pk).update(state=CampaignState.QUEUED)
    page.goto(f"{live_server.url}/sms/campaigns/{campaign.pk}/")

    assert page.inner_text("#campaign-queued h2") == texts["heading"]
    assert texts["not_started"] in page.inner_text("#not-started")
    assert page.locator("#campaign-progress-card").count() == 0
    assert page.locator("#campaign-queued .actions button").all_inner_texts() == [
        texts["cancel"]]
    assert provider_report(provider) == []
