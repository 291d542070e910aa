"""Scheduled campaigns: confirmed for a time in Asia/Shanghai, rescheduled or cancelled until
they start, started by beat exactly once, shown on the list and the dashboard; every bad time
gets the field's error. (The start across a restart of beat and worker, with a real worker and
the sandbox clock: test_sms_scheduled_start_across_restart.py.)"""

from __future__ import annotations

from datetime import datetime, timedelta
from io import StringIO
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from backoffice.models import AuditEntry
from sms import dashboard, services
from sms.models import Campaign, CampaignSource, CampaignState, MessageStatus, Template
from tests.sms.conftest import local_template

# The clock is moved: these tests assume the default window, 08:00-21:00 Shanghai time.
pytestmark = [pytest.mark.django_db, pytest.mark.marketing_window("08:00-21:00")]

SHANGHAI = ZoneInfo("Asia/Shanghai")
# A fixed "now" of the test clock: 2026-11-25 10:00 in Shanghai.
NOW = datetime(2026, 11, 25, 10, 0, tzinfo=SHANGHAI)


@pytest.fixture
def clock():
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


def draft(numbers: int = 2, source: str = CampaignSource.IMPORT) -> Campaign:
    template = Template.objects.first() or local_template()
    mobiles = "\n".join(f"1380013{n:04d},{n}" for n in range(numbers))
    preview = services.preview_recipients(template, mobiles, [])
    return services.store_recipients(template, preview.good, source=source)


def local_input(moment: datetime) -> str:
    """What a datetime-local input posts."""
    return f"{moment.astimezone(SHANGHAI):%Y-%m-%dT%H:%M}"


def confirm_later(client, campaign: Campaign, start: str):
    return client.post(
        f"/sms/campaigns/{campaign.pk}/confirm/", {"when": "later", "start_at": start}, follow=True
    )


def test_confirming_for_later_schedules_in_shanghai_time_and_queues_nothing(
    operator_client, clock, django_capture_on_commit_callbacks
):
    campaign = draft()

    with django_capture_on_commit_callbacks() as queued:
        response = confirm_later(operator_client, campaign, "2026-11-25T18:30")

    campaign.refresh_from_db()
    assert campaign.state == CampaignState.SCHEDULED
    # 18:30 in Shanghai is 10:30 UTC.
    assert campaign.scheduled_at == datetime(2026, 11, 25, 10, 30, tzinfo=ZoneInfo("UTC"))
    assert queued == []  # nothing for the worker before its time
    assert "Scheduled: the campaign starts at 2026-11-25 18:30" in response.content.decode()
    assert AuditEntry.objects.filter(action="campaign.confirm").get().summary.endswith(
        "scheduled for 2026-11-25T18:30:00+08:00"
    )


@pytest.mark.parametrize(
    ("start", "error"),
    [
        ("2026-11-25T09:59", "The start time is in the past"),
        ("2026-11-25T10:00", "The start time is in the past"),
        ("2027-02-23T10:01", "more than 90 days ahead"),
        ("", "Give the date and time to start at."),
        ("tomorrow", "Enter a valid date/time."),
    ],
)
def test_a_bad_start_time_gets_the_fields_error_and_leaves_the_draft(
    operator_client, clock, start, error
):
    campaign = draft()

    response = confirm_later(operator_client, campaign, start)

    assert response.status_code == 200
    field = response.context["schedule_form"].errors
    assert list(field) == ["start_at"] and error in field["start_at"][0]
    assert Campaign.objects.get(pk=campaign.pk).state == CampaignState.DRAFT


def test_the_last_minute_of_the_ninetieth_day_is_accepted(operator_client, clock):
    campaign = draft()

    confirm_later(operator_client, campaign, "2027-02-23T10:00")

    assert Campaign.objects.get(pk=campaign.pk).state == CampaignState.SCHEDULED


def test_send_now_still_queues_at_once(operator_client, clock, django_capture_on_commit_callbacks):
    campaign = draft()

    with django_capture_on_commit_callbacks() as queued:
        operator_client.post(f"/sms/campaigns/{campaign.pk}/confirm/", {"when": "now"})

    assert Campaign.objects.get(pk=campaign.pk).state == CampaignState.QUEUED
    assert len(queued) == 1


def test_beat_starts_a_campaign_at_its_time_once_even_when_two_beats_run(
    clock, django_capture_on_commit_callbacks
):
    campaign = draft()
    services.confirm_campaign(campaign, start_at=NOW + timedelta(minutes=30))

    clock.move_to(NOW + timedelta(minutes=29, seconds=59))
    assert services.start_due_campaigns() == []
    clock.move_to(NOW + timedelta(minutes=30))
    with django_capture_on_commit_callbacks() as queued:
        first_beat = services.start_due_campaigns()
        second_beat = services.start_due_campaigns()

    assert (first_beat, second_beat) == ([campaign.pk], [])
    assert len(queued) == 1  # one send task, whoever runs the job
    assert Campaign.objects.get(pk=campaign.pk).state == CampaignState.QUEUED
    assert AuditEntry.objects.filter(action="campaign.start").count() == 1
    # Confirmed half an hour ago, but started just now: the stalled sweep leaves it alone
    # until a lease's length has passed since the start.
    assert services.resume_stalled_campaigns() == []
    clock.move_to(NOW + timedelta(minutes=40))
    with django_capture_on_commit_callbacks() as swept:
        assert services.resume_stalled_campaigns() == [campaign.pk]
    assert len(swept) == 1


def test_a_scheduled_campaign_can_be_rescheduled_until_it_starts(operator_client, clock):
    campaign = draft()
    services.confirm_campaign(campaign, start_at=NOW + timedelta(hours=1))

    response = operator_client.post(
        f"/sms/campaigns/{campaign.pk}/reschedule/", {"start_at": "2026-11-26T09:15"}, follow=True
    )

    assert "Rescheduled: the campaign starts at 2026-11-26 09:15" in response.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).scheduled_at == datetime(
        2026, 11, 26, 9, 15, tzinfo=SHANGHAI
    )
    clock.move_to(NOW + timedelta(hours=2))  # the old time has passed: nothing starts
    assert services.start_due_campaigns() == []


def test_a_reschedule_after_the_start_is_refused_with_a_message(operator_client, clock):
    campaign = draft()
    services.confirm_campaign(campaign, start_at=NOW + timedelta(minutes=5))
    clock.move_to(NOW + timedelta(minutes=6))
    services.start_due_campaigns()

    response = operator_client.post(
        f"/sms/campaigns/{campaign.pk}/reschedule/", {"start_at": "2026-11-26T09:15"}, follow=True
    )

    assert "already started or was cancelled; it was not rescheduled" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.state == CampaignState.QUEUED
    assert campaign.scheduled_at == NOW + timedelta(minutes=5)


def test_a_reschedule_into_the_past_gets_the_fields_error(operator_client, clock):
    campaign = draft()
    services.confirm_campaign(campaign, start_at=NOW + timedelta(hours=1))

    response = operator_client.post(
        f"/sms/campaigns/{campaign.pk}/reschedule/", {"start_at": "2026-11-24T09:15"}
    )

    assert "The start time is in the past" in response.context["reschedule_form"].errors[
        "start_at"][0]
    assert Campaign.objects.get(pk=campaign.pk).scheduled_at == NOW + timedelta(hours=1)


def test_a_cancelled_scheduled_campaign_never_starts(operator_client, clock):
    campaign = draft(3)
    services.confirm_campaign(campaign, start_at=NOW + timedelta(hours=1))

    operator_client.post(f"/sms/campaigns/{campaign.pk}/cancel/", {"confirmed": "1"})
    clock.move_to(NOW + timedelta(hours=2))

    assert services.start_due_campaigns() == []
    campaign.refresh_from_db()
    assert campaign.state == CampaignState.CANCELLED
    assert set(campaign.messages.values_list("status", flat=True)) == {MessageStatus.CANCELLED}


def test_the_campaign_page_offers_reschedule_and_cancel_while_scheduled(
    operator_client, auditor, clock
):
    campaign = draft()
    services.confirm_campaign(campaign, start_at=NOW + timedelta(hours=3))
    auditor_client = Client()
    auditor_client.force_login(auditor)

    page = operator_client.get(f"/sms/campaigns/{campaign.pk}/").content.decode()
    read_only = auditor_client.get(f"/sms/campaigns/{campaign.pk}/").content.decode()

    assert "The campaign starts at 2026-11-25 13:00" in page
    assert 'id="reschedule-campaign"' in page and 'id="cancel-campaign"' in page
    assert 'value="2026-11-25T13:00"' in page  # the reschedule field starts at the current time
    assert "2026-11-25 13:00" in read_only and 'id="reschedule-campaign"' not in read_only


def test_the_list_shows_when_each_campaign_starts_and_filters_scheduled_ones(
    operator_client, clock
):
    later = draft()
    services.confirm_campaign(later, start_at=NOW + timedelta(days=2))
    now = draft()
    services.confirm_campaign(now)

    scheduled_only = operator_client.get("/sms/campaigns/?state=scheduled")

    assert [c.pk for c in scheduled_only.context["page"].object_list] == [later.pk]
    assert "2026-11-27 10:00" in scheduled_only.content.decode()


def test_the_dashboard_tile_names_the_next_scheduled_campaign(operator, clock, fresh_figures):
    shown = {f.label: f.value for f in dashboard.figures(operator)}
    assert shown["Next scheduled campaign"] == "none"
    far = draft()
    services.confirm_campaign(far, start_at=NOW + timedelta(days=3))
    near = draft()
    services.confirm_campaign(near, start_at=NOW + timedelta(hours=5))

    figures = {f.label: f.value for f in dashboard.figures(operator)}

    assert figures["Next scheduled campaign"] == f"#{near.pk} at 2026-11-25 15:00"


def test_the_send_page_can_schedule_its_send(operator_client, clock):
    template = local_template()
    form = {"template": template.pk, "recipients": "13800138000,1"}
    preview = operator_client.post("/sms/send/", {**form, "preview": "1"})
    draft_id = preview.context["draft"].pk

    bad = operator_client.post(
        "/sms/send/",
        {**form, "send": "1", "draft": draft_id, "when": "later", "start_at": "2026-11-24T08:00"},
    )
    assert "The start time is in the past" in bad.context["schedule_form"].errors["start_at"][0]
    new_draft = bad.context["draft"].pk
    response = operator_client.post(
        "/sms/send/",
        {**form, "send": "1", "draft": new_draft, "when": "later", "start_at": "2026-11-25T20:00"},
    )

    campaign = Campaign.objects.get(pk=new_draft)
    assert response.status_code == 302 and campaign.state == CampaignState.SCHEDULED
    assert campaign.scheduled_at == datetime(2026, 11, 25, 20, 0, tzinfo=SHANGHAI)
    assert campaign.messages.filter(status=MessageStatus.QUEUED).count() == 1


def run_import(*args: str) -> str:
    out = StringIO()
    call_command("sms_import", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_the_import_command_schedules_with_at(clock, tmp_path: Path):
    template = local_template()
    path = tmp_path / "list.csv"
    path.write_text("13800138000,1\n13900139000,2\n")

    output = run_import(
        str(path), "--template", str(template.provider_id), "--confirm", "--at", "2026-11-26 07:30"
    )

    campaign = Campaign.objects.get()
    assert "scheduled: it starts at 2026-11-26 07:30" in output
    assert campaign.state == CampaignState.SCHEDULED
    assert campaign.scheduled_at == datetime(2026, 11, 26, 7, 30, tzinfo=SHANGHAI)


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--confirm", "--at", "2026-11-26"], "--at: 2026-11-26 is not a date and time written"),
        (["--confirm", "--at", "2026-11-25 09:00"], "--at: The start time is in the past"),
        (["--confirm", "--at", "2027-03-01 09:00"], "--at: The start time is more than 90 days"),
        (["--at", "2026-11-26 07:30"], "--at: needs --confirm"),
        (["--confirm", "--now", "--at", "2026-11-26 07:30"], "--at: cannot be combined"),
    ],
)
def test_the_import_command_refuses_a_bad_at_and_stores_nothing(clock, tmp_path: Path, args, error):
    template = local_template()
    path = tmp_path / "list.csv"
    path.write_text("13800138000,1\n")

    with pytest.raises(CommandError, match=error):
        run_import(str(path), "--template", str(template.provider_id), *args)
    assert not Campaign.objects.exists()


def test_a_schedule_is_stored_in_utc(clock):
    campaign = draft()
    services.confirm_campaign(campaign, start_at=datetime(2026, 11, 26, 0, 30, tzinfo=SHANGHAI))

    stored = Campaign.objects.get(pk=campaign.pk).scheduled_at
    assert stored is not None and timezone.is_aware(stored)
    assert stored.astimezone(ZoneInfo("UTC")).isoformat() == "2026-11-25T16:30:00+00:00"
