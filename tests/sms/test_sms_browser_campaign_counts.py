"""In a real browser, in English and in Simplified Chinese: the campaign page shows sending and
delivery progress apart, counts every heading, and follows the delivery reports as they arrive
without a reload (the page polls while reports are missing)."""

from __future__ import annotations

import pytest

from sms import services
from sms.models import Campaign, CampaignState, Message, MessageStatus
from sms.services.importing import GoodLine
from tests.sms.conftest import local_template

S = MessageStatus
# Five numbers: one still queued, two accepted and awaiting their report, one delivered, one
# failed. Sending is not complete, and neither are the reports.
STATUSES = [S.QUEUED, S.PROCESSING, S.PROCESSING, S.SUCCESS, S.FAILED]


def sending_campaign() -> Campaign:
    lines = [GoodLine(line_number=n, mobile=f"138{n:08d}", variables=["1"], text="码1",
                      units=1, carrier="CMCC") for n in range(len(STATUSES))]
    campaign = services.store_recipients(local_template(), lines)
    for message, status in zip(campaign.messages.order_by("id"), STATUSES, strict=True):
        Message.objects.filter(pk=message.pk).update(
            status=status, error_code="UNDELIV" if status == S.FAILED else "")
    Campaign.objects.filter(pk=campaign.pk).update(state=CampaignState.SENDING)
    return campaign


def count_of(page, heading: str) -> str:
    return page.inner_text(f'#campaign-counts dd[data-count="{heading}"]')


def reports_arrive(campaign: Campaign) -> None:
    """The last number is sent and every report comes in: all delivered but the failed one."""
    Message.objects.filter(campaign=campaign).exclude(status=S.FAILED).update(status=S.SUCCESS)
    Campaign.objects.filter(pk=campaign.pk).update(state=CampaignState.DONE)


def open_campaign(page, live_server, campaign: Campaign) -> None:
    page.goto(f"{live_server.url}/sms/campaigns/{campaign.pk}/")
    page.wait_for_selector("#campaign-counts")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_campaign_page_counts_each_heading_and_follows_the_reports(
    page, live_server, staff_login
):
    campaign = sending_campaign()
    staff_login("operator", groups=("SMS operators",))
    open_campaign(page, live_server, campaign)

    assert page.inner_text("label[for=sending-progress]") == "Sending"
    assert page.inner_text("label[for=delivery-progress]") == "Delivery reports"
    assert page.get_attribute("#sending-progress", "value") == "80"  # 4 of 5 handed over
    assert page.get_attribute("#delivery-progress", "value") == "50"  # 2 of 4 reported
    assert [count_of(page, heading) for heading in
            ("total", "queued", "sent", "delivered", "failed", "unknown", "cancelled")] == [
        "5", "1", "2", "1", "1", "0", "0"]
    failed_row = page.locator("tr", has_text="Failed").last.inner_text()
    assert "UNDELIV" in failed_row  # a failed number shows its error code

    reports_arrive(campaign)
    page.wait_for_function(
        """() => document.querySelector('#campaign-counts dd[data-count="delivered"]')
                   .textContent.trim() === '4'""", timeout=20_000)
    assert count_of(page, "queued") == "0" and count_of(page, "sent") == "0"
    page.wait_for_function(
        "() => document.querySelector('#delivery-progress').value === 100", timeout=20_000)
    assert page.get_attribute("#sending-progress", "value") == "100"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_campaign_counts_read_in_simplified_chinese(page, live_server, staff_login):
    campaign = sending_campaign()
    staff_login("operator", groups=("SMS operators",))
    page.context.add_cookies([{"name": "django_language", "value": "zh-hans",
                               "url": live_server.url}])
    open_campaign(page, live_server, campaign)

    labels = page.locator("#campaign-counts dt").all_inner_texts()
    assert not any(label.isascii() for label in labels), labels  # every heading translated
    assert page.inner_text("label[for=sending-progress]") != "Sending"
    assert count_of(page, "delivered") == "1"

    reports_arrive(campaign)
    page.wait_for_function(
        """() => document.querySelector('#campaign-counts dd[data-count="delivered"]')
                   .textContent.trim() === '4'""", timeout=20_000)
    assert count_of(page, "failed") == "1"
