"""Quiet hours: a marketing campaign sends only inside SMS_MARKETING_WINDOW; one still sending
when the window closes waits (and says so on its page) and resumes when it opens, without
sending any number twice. Industry campaigns are not affected; staff with the permission may
lift the window for one campaign, and that is audited."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.contrib.auth.models import Permission
from django.test import Client

from backoffice.models import AuditEntry
from sms import services
from sms.models import Campaign, CampaignState, Chunk, ChunkState, Message, MessageStatus
from tests.sms.conftest import provider_report, sandbox_settings
from tests.sms.test_sms_campaign_resume import assert_each_number_sent_once, numbers

# The clock is moved: these tests assume the default window, 08:00-21:00 Shanghai time.
pytestmark = [pytest.mark.django_db, pytest.mark.marketing_window("08:00-21:00")]

SHANGHAI = ZoneInfo("Asia/Shanghai")


def shanghai_today(hour: int, minute: int = 0, second: int = 0, days: int = 0) -> datetime:
    today = datetime.now(SHANGHAI).date() + timedelta(days=days)
    return datetime(today.year, today.month, today.day, hour, minute, second, tzinfo=SHANGHAI)


def signed_in(user) -> Client:
    """A client signed in at the test clock's time (a session idles out after 8 hours, so one
    opened at the real time would be over at the travelled one)."""
    client = Client()
    client.force_login(user)
    return client


def draft_of(template, mobiles: list[str]) -> Campaign:
    preview = services.preview_recipients(template, "\n".join(mobiles), ["1"])
    return services.store_recipients(template, preview.good)


def test_a_campaign_sending_when_the_window_closes_waits_and_resumes_when_it_opens(
    provider, sms_template, operator
):
    sandbox_settings(provider, general=100_000)
    template = sms_template("plain")  # marketing
    mobiles = numbers(1200)  # two chunks
    campaign = draft_of(template, mobiles)
    # The first call is answered 4 s after the provider carried it out: the window closes
    # (21:00) while it is out, so the check before the second chunk finds it closed.
    provider.add_fault(
        service="sms", path="^/api/messages$", method="POST", action="delay", delay_ms=4000,
        when="after", times=1,
    )
    with time_machine.travel(shanghai_today(20, 59, 58), tick=True):
        services.confirm_campaign(campaign)
        outcome = services.run_campaign(campaign.pk, budget_s=float("inf"))

        campaign.refresh_from_db()
        assert outcome.state == CampaignState.WAITING and not outcome.again
        assert campaign.state == CampaignState.WAITING
        assert campaign.resume_at == shanghai_today(8, days=1)
        assert len(provider_report(provider)) == 1000
        assert Message.objects.filter(status=MessageStatus.QUEUED).count() == 200
        # Chunk 2 was opened, but none of its numbers went out.
        assert dict(Chunk.objects.values_list("number", "state")) == {
            1: ChunkState.SENT, 2: ChunkState.SENDING}
        operator_client = signed_in(operator)
        page = operator_client.get(f"/sms/campaigns/{campaign.pk}/").content.decode()
        resumes = f"{shanghai_today(8, days=1):%Y-%m-%d} 08:00"
        assert "Paused: marketing messages go out only between 08:00-21:00" in page
        assert f"Sending resumes at {resumes}" in page
        listed = operator_client.get("/sms/campaigns/").content.decode()
        assert f"resumes {resumes}" in listed
        # A worker or the stalled sweep running it meanwhile sends nothing more.
        assert services.run_campaign(campaign.pk).claimed is False
        assert services.resume_stalled_campaigns() == []
        assert services.start_due_campaigns() == []

    with time_machine.travel(shanghai_today(8, 0, 20, days=1), tick=True):
        assert services.start_due_campaigns() == [campaign.pk]
        # Just started by beat, its task on the way: not taken for a stalled one.
        assert services.resume_stalled_campaigns() == []
        services.run_campaign(campaign.pk, budget_s=float("inf"))

    campaign.refresh_from_db()
    assert campaign.state == CampaignState.DONE
    assert campaign.accepted_count == 1200
    assert_each_number_sent_once(provider, mobiles)


def test_a_marketing_campaign_confirmed_at_night_sends_nothing_until_morning(
    provider, sms_template
):
    template = sms_template("plain")
    campaign = draft_of(template, numbers(3))
    with time_machine.travel(shanghai_today(23, 30), tick=True):
        services.confirm_campaign(campaign)
        services.run_campaign(campaign.pk)

    assert Campaign.objects.get(pk=campaign.pk).state == CampaignState.WAITING
    assert provider_report(provider) == []


def test_a_scheduled_marketing_campaign_due_at_night_waits_for_the_window(
    provider, sms_template
):
    template = sms_template("plain")
    campaign = draft_of(template, numbers(2))
    with time_machine.travel(shanghai_today(22, 0), tick=True):
        services.confirm_campaign(campaign, start_at=shanghai_today(22, 30))
    with time_machine.travel(shanghai_today(22, 30, 10), tick=True):
        assert services.start_due_campaigns() == [campaign.pk]
        services.run_campaign(campaign.pk)

    campaign.refresh_from_db()
    assert campaign.state == CampaignState.WAITING
    assert campaign.resume_at == shanghai_today(8, days=1)
    assert provider_report(provider) == []


def test_industry_messages_are_not_held_by_the_window(provider, sms_template):
    template = sms_template("code")  # industry
    campaign = draft_of(template, numbers(2))
    with time_machine.travel(shanghai_today(23, 30), tick=True):
        services.confirm_campaign(campaign)
        services.run_campaign(campaign.pk)

    assert Campaign.objects.get(pk=campaign.pk).state == CampaignState.DONE
    assert len(provider_report(provider)) == 2


def test_a_window_setting_spanning_midnight_is_followed(provider, sms_template, settings):
    settings.SMS_MARKETING_WINDOW = "22:00-06:00"
    template = sms_template("plain")
    campaign = draft_of(template, numbers(2))
    with time_machine.travel(shanghai_today(23, 30), tick=True):
        services.confirm_campaign(campaign)
        services.run_campaign(campaign.pk)

    assert Campaign.objects.get(pk=campaign.pk).state == CampaignState.DONE


def test_a_cancel_while_waiting_cancels_the_numbers_left(provider, sms_template, operator):
    template = sms_template("plain")
    campaign = draft_of(template, numbers(3))
    with time_machine.travel(shanghai_today(23, 30), tick=True):
        services.confirm_campaign(campaign)
        services.run_campaign(campaign.pk)
        signed_in(operator).post(f"/sms/campaigns/{campaign.pk}/cancel/", {"confirmed": "1"})
    with time_machine.travel(shanghai_today(8, 1, days=1), tick=True):
        assert services.start_due_campaigns() == []

    campaign.refresh_from_db()
    assert campaign.state == CampaignState.CANCELLED and campaign.cancelled_count == 3
    assert provider_report(provider) == []


@pytest.fixture
def supervisor(operator):
    """An SMS operator who was also given the override permission, one by one."""
    operator.user_permissions.add(Permission.objects.get(codename="override_quiet_hours"))
    return operator


def test_staff_with_the_permission_may_lift_the_window_for_one_campaign_and_it_is_audited(
    provider, sms_template, supervisor
):
    template = sms_template("plain")
    lifted = draft_of(template, numbers(2))
    other = draft_of(template, ["13700137000"])
    with time_machine.travel(shanghai_today(23, 30), tick=True):
        client = signed_in(supervisor)
        page = client.get(f"/sms/campaigns/{lifted.pk}/").content.decode()
        assert 'name="override_window"' in page
        client.post(
            f"/sms/campaigns/{lifted.pk}/confirm/", {"when": "now", "override_window": "on"}
        )
        client.post(f"/sms/campaigns/{other.pk}/confirm/", {"when": "now"})
        services.run_campaign(lifted.pk)
        services.run_campaign(other.pk)

    lifted.refresh_from_db()
    assert lifted.state == CampaignState.DONE
    assert lifted.window_override_by == supervisor and lifted.window_override_at is not None
    assert Campaign.objects.get(pk=other.pk).state == CampaignState.WAITING
    entry = AuditEntry.objects.get(action="campaign.window_override")
    assert (entry.actor, entry.object_id) == (supervisor, str(lifted.pk))
    assert sorted(r["mobile"] for r in provider_report(provider)) == numbers(2)


def test_an_operator_without_the_permission_is_not_offered_the_override_and_cannot_forge_it(
    provider, sms_template, operator
):
    from backoffice.security.roles import operator_permissions

    assert not operator_permissions(("sms",)).filter(codename="override_quiet_hours").exists()
    template = sms_template("plain")
    campaign = draft_of(template, numbers(2))
    with time_machine.travel(shanghai_today(23, 30), tick=True):
        operator_client = signed_in(operator)
        page = operator_client.get(f"/sms/campaigns/{campaign.pk}/").content.decode()
        operator_client.post(
            f"/sms/campaigns/{campaign.pk}/confirm/", {"when": "now", "override_window": "on"}
        )
        services.run_campaign(campaign.pk)

    assert 'name="override_window"' not in page
    campaign.refresh_from_db()
    assert campaign.state == CampaignState.WAITING and campaign.window_override_at is None
    assert not AuditEntry.objects.filter(action="campaign.window_override").exists()


def test_the_service_refuses_an_override_without_the_permission(sms_template, operator):
    template = sms_template("plain", status=None)
    campaign = draft_of(template, numbers(1))

    with pytest.raises(services.WindowOverrideNotAllowed):
        services.confirm_campaign(campaign, operator, override_window=True)
    assert Campaign.objects.get(pk=campaign.pk).state == CampaignState.DRAFT
