"""In a real browser: the date-time field of "When to send" is shown only while "At a date and
time" is chosen, on the send page and on a draft campaign's page (progressive enhancement in
static/sms/sms.js); "Send now" with the field hidden sends at once."""

from __future__ import annotations

import pytest

from sms import services
from sms.models import Campaign, CampaignState
from tests.sms.conftest import preview_on_the_send_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def time_field_shown(page) -> bool:
    return bool(page.is_visible("#id_start_at")) and page.is_enabled("#id_start_at")


def test_the_send_page_shows_the_time_only_for_a_later_start(
    page, live_server, staff_login, provider, sms_template
):
    template = sms_template()
    staff_login("operator", groups=("SMS operators",))
    preview_on_the_send_page(page, live_server, template, "13800138000")

    assert page.is_checked("#id_when_0") and not time_field_shown(page)
    page.check("#id_when_1")
    assert time_field_shown(page)
    page.check("#id_when_0")
    assert not time_field_shown(page)

    page.click("#send")
    page.wait_for_url(f"{live_server.url}/sms/campaigns/*/")
    assert Campaign.objects.get().state != CampaignState.SCHEDULED


def test_a_time_refused_keeps_the_field_shown_with_its_error(
    page, live_server, staff_login, provider, sms_template
):
    template = sms_template()
    staff_login("operator", groups=("SMS operators",))
    preview_on_the_send_page(page, live_server, template, "13800138000")
    page.check("#id_when_1")
    page.fill("#id_start_at", "2020-01-01T09:30")
    page.click("#send")

    page.wait_for_selector("[data-field=start_at] .errorlist")
    assert page.is_checked("#id_when_1") and time_field_shown(page)
    assert "The start time is in the past" in page.inner_text("[data-field=start_at]")


def test_a_draft_campaigns_confirm_form_hides_the_time_until_asked(
    page, live_server, staff_login, provider, sms_template
):
    template = sms_template()
    preview = services.preview_recipients(template, "13800138000\n13900139000", ["1"])
    campaign = services.store_recipients(template, preview.good)
    staff_login("operator", groups=("SMS operators",))
    page.goto(f"{live_server.url}/sms/campaigns/{campaign.pk}/")

    assert page.is_visible("#confirm-form") and not time_field_shown(page)
    page.check("#confirm-form input[name=when][value=later]")
    assert time_field_shown(page)
