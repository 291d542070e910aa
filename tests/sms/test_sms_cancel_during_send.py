"""A campaign cancelled while a send call is out stays cancelled: a refusal or a failure
answered to that call never turns it into "halted" (which staff could resume), and the numbers
the call carried are cancelled with the rest instead of going back to the queue.

The calls go out from a pool thread (several in flight), so "staff" cancel from there, on a
connection of their own, as a person's request would: the tests commit for real."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from backoffice.operations.provider import provider_observers, provider_settings
from sms import services
from sms.client import SmsClient
from sms.models import Campaign, CampaignState, Chunk, ChunkState, Message, MessageStatus
from sms.services import campaign_lease, campaigns
from sms.services.connection import CONNECT_TIMEOUT_S
from tests.sms.conftest import let_backoff_pass, let_grace_pass, provider_report, sandbox_settings

pytestmark = pytest.mark.django_db(transaction=True)


class StaffCancelDuringTheCall(SmsClient):
    """The real client; staff press "cancel" just as its send call goes out."""

    def __init__(self, campaign_id: int) -> None:
        values = provider_settings("sms")
        super().__init__(
            values["api_url"],
            values["token"],
            timeout=(CONNECT_TIMEOUT_S, 15.0),
            observers=provider_observers("sms"),
        )
        self.campaign_id = campaign_id

    def send(self, *args, **kwargs):
        services.cancel_campaign(Campaign.objects.get(pk=self.campaign_id))
        connection.close()  # this thread's own connection, as a finished request's
        return super().send(*args, **kwargs)


def queued_campaign(template, count: int) -> Campaign:
    mobiles = [f"1350{n:07d}" for n in range(count)]
    preview = services.preview_recipients(template, "\n".join(mobiles), [])
    campaign = services.store_recipients(template, preview.good)
    Campaign.objects.filter(pk=campaign.pk).update(
        state=CampaignState.QUEUED, confirmed_at=timezone.now()
    )
    return campaign


def refuse_next_send(sandbox, status: int, code: str) -> None:
    sandbox.add_fault(
        service="sms",
        path="^/api/messages$",
        method="POST",
        action="status",
        status=status,
        body={"error_code": code, "message": "injected"},
        times=1,
    )


def assert_all_cancelled(campaign: Campaign, count: int) -> None:
    campaign.refresh_from_db()
    assert campaign.state == CampaignState.CANCELLED
    assert set(Message.objects.values_list("status", flat=True)) == {MessageStatus.CANCELLED}
    assert campaign.cancelled_count == count


def test_a_refusal_answered_after_the_cancel_keeps_the_campaign_cancelled(
    provider, sms_template, django_capture_on_commit_callbacks
):
    sandbox_settings(provider, general=100_000)
    campaign = queued_campaign(sms_template("plain"), 1500)
    refuse_next_send(provider, 409, "TEMPLATE_AUDITING")

    with django_capture_on_commit_callbacks(execute=False):
        outcome = services.run_campaign(campaign.pk, client=StaffCancelDuringTheCall(campaign.pk))

    assert_all_cancelled(campaign, 1500)
    with pytest.raises(services.CampaignStateError):
        services.resume_campaign(campaign)
    # The next run closes the chunks; nothing was ever sent.
    assert outcome.again
    services.run_campaign(campaign.pk)
    assert not Chunk.objects.filter(campaign=campaign).exclude(state=ChunkState.SENT).exists()
    assert provider_report(provider) == []


def test_a_failure_past_the_retry_limit_after_the_cancel_keeps_it_cancelled(
    provider, sms_template, django_capture_on_commit_callbacks
):
    campaign = queued_campaign(sms_template("plain"), 5)
    Campaign.objects.filter(pk=campaign.pk).update(retries=campaigns.MAX_UNCERTAIN_RETRIES)
    refuse_next_send(provider, 500, "SMS_SYSTEM_ERROR")

    with django_capture_on_commit_callbacks(execute=False):
        services.run_campaign(campaign.pk, client=StaffCancelDuringTheCall(campaign.pk))

    campaign.refresh_from_db()
    assert campaign.state == CampaignState.CANCELLED
    # The numbers of the failed call are in doubt: the next run asks the report, finds them
    # never accepted, and cancels them too.
    let_grace_pass(campaign)
    let_backoff_pass(campaign)
    services.run_campaign(campaign.pk)
    assert_all_cancelled(campaign, 5)
    assert provider_report(provider) == []


def test_numbers_left_queued_in_a_cancelled_campaign_are_cancelled_by_its_next_run(
    provider, sms_template
):
    campaign = queued_campaign(sms_template("plain"), 3)
    # What a run racing the cancel leaves behind: the campaign cancelled, a chunk open, and
    # numbers it had put back in the queue after the cancel had emptied it.
    Campaign.objects.filter(pk=campaign.pk).update(state=CampaignState.CANCELLED)
    Chunk.objects.filter(campaign=campaign).update(state=ChunkState.SENDING)

    assert campaign_lease.stalled_campaigns() == [campaign.pk]
    services.run_campaign(campaign.pk)

    assert_all_cancelled(campaign, 3)
    assert provider_report(provider) == []
