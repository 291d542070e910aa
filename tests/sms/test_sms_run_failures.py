"""A run that fails for a reason of ours (missing settings, a bug, a database error) does not
leave the campaign "Sending" forever: the reason is stored and shown, retries back off and
are counted, and the campaign halts for staff after the limit (at once when the provider is
not configured, since waiting does not fix that)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from backoffice.operations.provider import provider_observers, provider_settings
from sms import services
from sms.client import SmsClient
from sms.models import Campaign, CampaignState, Message, MessageStatus
from sms.services import campaign_lease, campaigns
from tests.sms.conftest import let_backoff_pass, let_grace_pass, provider_report

pytestmark = pytest.mark.django_db


class BrokenClient(SmsClient):
    """The real client with a bug in its send (stands in for any unexpected exception)."""

    def __init__(self) -> None:
        values = provider_settings("sms")
        super().__init__(values["api_url"], values["token"], observers=provider_observers("sms"))

    def send(self, *args, **kwargs):
        raise RuntimeError("a bug in the send path")


def queued_campaign(template) -> Campaign:
    preview = services.preview_recipients(template, "13800138000\n13900139000", ["1"])
    campaign = services.store_recipients(template, preview.good)
    Campaign.objects.filter(pk=campaign.pk).update(
        state=CampaignState.QUEUED, confirmed_at=timezone.now()
    )
    return campaign


def test_missing_provider_settings_halt_the_campaign_with_the_reason(
    operator_client, provider, sms_template, settings
):
    campaign = queued_campaign(sms_template())
    settings.PROVIDER = {**settings.PROVIDER, "sms": {**settings.PROVIDER["sms"], "token": ""}}

    outcome = services.run_campaign(campaign.pk)

    campaign.refresh_from_db()
    assert outcome.state == CampaignState.HALTED and campaign.state == CampaignState.HALTED
    assert campaign.halt_code == "PROVIDER_NOT_CONFIGURED" and "token" in campaign.halt_detail
    page = operator_client.get(reverse("sms:campaign", args=[campaign.pk])).content.decode()
    assert "The SMS provider is not configured" in page
    assert set(Message.objects.values_list("status", flat=True)) == {MessageStatus.QUEUED}


def test_an_unexpected_error_is_recorded_backs_off_and_halts_after_the_limit(
    provider, sms_template
):
    campaign = queued_campaign(sms_template())

    first = services.run_campaign(campaign.pk, client=BrokenClient())

    campaign.refresh_from_db()
    assert first.again and first.countdown >= 30
    assert campaign.state == CampaignState.SENDING and campaign.retries == 1
    assert campaign.halt_code == "UNEXPECTED_ERROR"
    assert "RuntimeError: a bug in the send path" in campaign.halt_detail
    assert campaign_lease.stalled_campaigns() == []  # not re-run every minute: it waits its backoff

    for _ in range(campaigns.MAX_UNCERTAIN_RETRIES):
        # The numbers of the broken call are in doubt until the report says otherwise.
        let_grace_pass(campaign)
        let_backoff_pass(campaign)
        services.run_campaign(campaign.pk, client=BrokenClient())

    campaign.refresh_from_db()
    assert campaign.state == CampaignState.HALTED
    assert campaign.retries == campaigns.MAX_UNCERTAIN_RETRIES + 1
    assert provider_report(provider) == []
    # Staff fixed the cause and resume: it goes on from where it stopped.
    services.resume_campaign(campaign)
    let_grace_pass(campaign)
    assert services.run_campaign(campaign.pk).state == CampaignState.DONE
    assert len(provider_report(provider)) == 2


def test_the_campaign_page_names_an_unexpected_error(operator_client, provider, sms_template):
    campaign = queued_campaign(sms_template())
    services.run_campaign(campaign.pk, client=BrokenClient())

    page = operator_client.get(reverse("sms:campaign", args=[campaign.pk])).content.decode()

    assert "An unexpected error stopped the last run" in page
