"""The campaign lease outlasts the longest provider call the settings allow: with a long
PROVIDER_TIMEOUT_S, a run still inside a slow call is not taken for dead."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from sms import services
from sms.models import Campaign, CampaignState
from sms.services import campaign_lease
from sms.services.connection import CONNECT_TIMEOUT_S

pytestmark = pytest.mark.django_db


def queued_campaign(template) -> Campaign:
    preview = services.preview_recipients(template, "13800138000", ["1"])
    campaign = services.store_recipients(template, preview.good)
    Campaign.objects.filter(pk=campaign.pk).update(
        state=CampaignState.QUEUED, confirmed_at=timezone.now()
    )
    return campaign


@pytest.mark.parametrize("read_timeout_s", [15, 300])
def test_the_lease_covers_two_calls_at_the_configured_timeouts(
    provider, sms_template, settings, read_timeout_s
):
    settings.PROVIDER_TIMEOUT_S = read_timeout_s
    campaign = queued_campaign(sms_template())
    before = timezone.now()

    assert campaign_lease.claim(campaign.pk)

    expires_at = Campaign.objects.get(pk=campaign.pk).lease_expires_at
    assert expires_at is not None
    lease = expires_at - before
    assert lease >= timedelta(seconds=2 * (CONNECT_TIMEOUT_S + read_timeout_s))
    assert lease >= timedelta(seconds=120)


def test_a_run_inside_a_long_call_is_not_taken_for_stalled(provider, sms_template, settings):
    settings.PROVIDER_TIMEOUT_S = 300
    campaign = queued_campaign(sms_template())
    assert campaign_lease.claim(campaign.pk)

    # Four minutes into a call that may last five: the run is alive.
    later = timezone.now() + timedelta(minutes=4)

    assert campaign_lease.stalled_campaigns(now=later) == []
