"""The campaign lease. A run inside a transaction holds a long lease that outlasts the longest
provider call the settings allow; a run in a worker holds a short one, renewed by a keeper thread
while it lives, so that a dead worker is noticed within seconds and a live one never is."""

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


# --- a run in a worker: a short lease, renewed by its keeper thread --------------------------


def test_a_run_outside_a_transaction_takes_the_short_lease():
    assert campaign_lease.run_lease(is_watched=True) == campaign_lease.WATCHED_LEASE
    assert timedelta(seconds=15) >= campaign_lease.WATCHED_LEASE
    # Inside a transaction (this test's) the keeper's writes could not be seen: the long one.
    assert not campaign_lease.watched()
    assert campaign_lease.run_lease(campaign_lease.watched()) >= timedelta(seconds=120)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_keeper_holds_a_short_lease_through_a_call_longer_than_it(
    provider, postgres, sms_template, monkeypatch
):
    """The provider holds the send call 3 s; the lease lasts 1 s: the keeper renews it
    meanwhile, so the campaign is never taken for stalled, and each number goes once."""
    import threading

    from django.db import connection

    from tests.sms.conftest import provider_report

    monkeypatch.setattr(campaign_lease, "WATCHED_LEASE", timedelta(seconds=1))
    monkeypatch.setattr(campaign_lease, "RENEW_EVERY_S", 0.2)
    campaign = queued_campaign(sms_template())
    provider.add_fault(service="sms", path="^/api/messages$", method="POST", action="delay",
                       delay_ms=3000, when="before", times=1)
    outcomes = []

    def run_in_a_worker_thread():
        try:
            outcomes.append(services.run_campaign(campaign.pk))
        finally:
            connection.close()

    run = threading.Thread(target=run_in_a_worker_thread)
    run.start()
    seen_stalled = []
    while run.is_alive():
        seen_stalled += campaign_lease.stalled_campaigns()
        run.join(0.1)

    assert outcomes[0].state == CampaignState.DONE
    assert seen_stalled == []
    assert [record["mobile"] for record in provider_report(provider)] == ["13800138000"]
    # Given up at the end of the run: free at once for the next.
    assert Campaign.objects.get(pk=campaign.pk).lease_owner == ""


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_run_past_its_time_limit_loses_its_lease(provider, postgres, sms_template):
    """A run stuck beyond any call's length is not kept alive by its keeper for ever."""
    import time

    campaign = queued_campaign(sms_template())
    lease = timedelta(seconds=0.4)
    token = campaign_lease.claim(campaign.pk, lease)
    assert token
    with campaign_lease.LeaseKeeper(campaign.pk, token, limit_s=1.0, lease=lease,
                                    every_s=0.1) as keeper:
        time.sleep(0.8)
        assert campaign_lease.stalled_campaigns() == []  # renewed meanwhile
        time.sleep(1.2)
        assert campaign_lease.stalled_campaigns() == [campaign.pk]  # the limit passed
    assert keeper.renewals >= 4


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_keeper_stops_once_another_run_holds_the_lease(provider, postgres, sms_template):
    import time

    campaign = queued_campaign(sms_template())
    lease = timedelta(seconds=0.3)
    token = campaign_lease.claim(campaign.pk, lease)
    assert token
    with campaign_lease.LeaseKeeper(campaign.pk, token, limit_s=60, lease=lease,
                                    every_s=0.1) as keeper:
        time.sleep(0.3)
        Campaign.objects.filter(pk=campaign.pk).update(lease_owner="another-run")
        time.sleep(0.5)
        renewals = keeper.renewals
        time.sleep(0.3)
        assert keeper.renewals == renewals  # it gave up
    assert Campaign.objects.get(pk=campaign.pk).lease_owner == "another-run"


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_keeper_rides_out_a_database_outage(provider, postgres, sms_template):
    """A renewal that fails (the server restarting) is tried again on a new connection."""
    from tests.database_outage import database_unreachable

    campaign = queued_campaign(sms_template())
    token = campaign_lease.claim(campaign.pk, timedelta(seconds=5))
    assert token
    keeper = campaign_lease.LeaseKeeper(campaign.pk, token, limit_s=60)
    with database_unreachable():
        assert keeper.renew_once() is True  # not given up
    assert keeper.renewals == 0
    assert keeper.renew_once() is True
    assert keeper.renewals == 1
    expires_at = Campaign.objects.get(pk=campaign.pk).lease_expires_at
    assert expires_at is not None
    assert expires_at > timezone.now() + campaign_lease.WATCHED_LEASE - timedelta(seconds=5)
