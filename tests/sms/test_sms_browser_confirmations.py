"""In a real browser, in English and in Chinese: "Cancel the rest" on a sending campaign
opens the confirmation page, which names how many numbers are stopped; "Go back" leaves the
campaign sending, the confirm button cancels it."""

from __future__ import annotations

import pytest

from sms import services
from sms.models import Campaign, CampaignState, Message, MessageStatus
from sms.services.importing import GoodLine
from tests.sms.conftest import local_template

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDING = {
    "en": ("Cancel the 3 numbers not yet sent of campaign #{id}?", "Cancel 3 numbers",
           "Go back: do nothing", "Cancelled"),
    "zh-hans": ("取消群发任务 #{id} 中尚未发送的 3 个号码？", "取消 3 个号码",
                "返回：不做任何操作", "已取消"),
}


def sending_campaign() -> Campaign:
    lines = [GoodLine(line_number=n, mobile=f"138{n:08d}", variables=["1"], text="码1",
                      units=1, carrier="CMCC") for n in range(4)]
    campaign = services.store_recipients(local_template(), lines)
    first = campaign.messages.order_by("id").first()
    assert first is not None
    Message.objects.filter(pk=first.pk).update(status=MessageStatus.PROCESSING)
    Campaign.objects.filter(pk=campaign.pk).update(state=CampaignState.SENDING)
    return campaign


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_cancel_the_rest_is_confirmed_with_the_count(page, live_server, staff_login, provider,
                                                     language):
    staff_login("operator", groups=("SMS operators",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    campaign = sending_campaign()
    question, button, back, cancelled = WORDING[language]
    page.goto(f"{live_server.url}/sms/campaigns/{campaign.pk}/")

    page.click("#cancel-campaign")
    assert page.inner_text("#confirm-question") == question.format(id=campaign.pk)
    assert page.inner_text("#confirm-action") == button
    page.click("#confirm-back")
    page.wait_for_selector("#campaign-state")
    assert Campaign.objects.get(pk=campaign.pk).state == CampaignState.SENDING

    page.click("#cancel-campaign")
    page.click("#confirm-action")
    page.wait_for_url(f"{live_server.url}/sms/campaigns/{campaign.pk}/")
    assert page.inner_text("#campaign-state") == cancelled
    assert Message.objects.filter(campaign=campaign, status=MessageStatus.CANCELLED).count() == 3
