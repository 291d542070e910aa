"""Report sync: messages move from processing to success or failed as the provider reports,
final states never move back, unknown statuses are kept, and the beat job is scheduled."""

from __future__ import annotations

import pytest

from backoffice.celery import collect_beat_schedule
from sms import services
from sms.models import Message, MessageStatus
from sms.services import reports
from tests.sms.conftest import sandbox_settings

pytestmark = pytest.mark.django_db


def send(template, mobiles: list[str]):
    good = services.preview_recipients(template, "\n".join(mobiles), ["1"]).good
    return services.send_recipients(template, good)


def test_sync_drives_every_message_to_its_final_status(provider, sms_template):
    sandbox_settings(provider, delivery_delay_s=30, failure_rate=0.0)
    template = sms_template()
    send(template, ["13800138000", "13900139000"])
    assert set(Message.objects.values_list("status", flat=True)) == {MessageStatus.PROCESSING}

    early = services.sync_reports()
    assert early.moved_total == 0 and early.open_left == 2

    provider.advance(31)
    result = services.sync_reports()

    assert result.moved == {"success": 2}
    for message in Message.objects.all():
        assert message.status == MessageStatus.SUCCESS
        assert message.sent_at is not None
        assert message.units_billed == 1
    assert services.sync_reports().pages == 0  # nothing left open: the report is not read


def test_failures_are_recorded_and_cost_nothing(provider, sms_template):
    sandbox_settings(provider, delivery_delay_s=5, failure_rate=1.0)
    template = sms_template()
    send(template, ["13800138000"])
    provider.advance(6)

    services.sync_reports()

    message = Message.objects.get()
    assert message.status == MessageStatus.FAILED
    assert message.units_billed is None


def test_a_marketing_template_without_unsubscribe_wording_ends_failed(provider, sms_template):
    sandbox_settings(provider, delivery_delay_s=5)
    template = sms_template("plain", content="周末全场8折，欢迎光临。")
    good = services.preview_recipients(template, "13800138000", []).good
    services.send_recipients(template, good)
    provider.advance(6)

    services.sync_reports()

    assert Message.objects.get().status == MessageStatus.FAILED


def test_a_final_status_never_moves_back(provider, sms_template):
    sandbox_settings(provider, delivery_delay_s=5, failure_rate=0.0)
    template = sms_template()
    send(template, ["13800138000"])
    provider.advance(6)
    message = Message.objects.get()
    Message.objects.filter(pk=message.pk).update(status=MessageStatus.FAILED)

    services.sync_reports()

    assert Message.objects.get().status == MessageStatus.FAILED


def test_an_unknown_status_is_stored_verbatim_and_can_still_move(provider, sms_template):
    from sms import client as api

    sandbox_settings(provider, delivery_delay_s=5)
    template = sms_template()
    send(template, ["13800138000"])
    message = Message.objects.get()
    assert message.provider_message_id is not None and message.submitted_at is not None
    record = api.Message(
        id=message.provider_message_id,
        template_id=template.provider_id,
        report_type="general",
        title="",
        type="industry",
        content="",
        temp_sign="",
        mobile=message.mobile,
        sent_at=None,
        created_at=message.submitted_at,
        status="carrier_queued",
        quantity=1,
        owner=None,
    )

    reports.apply_records((record,), reports.ReportSync())
    message.refresh_from_db()
    assert message.status == "carrier_queued"
    assert not message.status_known and "carrier_queued" in message.status_label

    provider.advance(6)
    services.sync_reports()
    assert Message.objects.get().status == MessageStatus.SUCCESS


def test_the_beat_schedule_holds_the_sms_jobs():
    schedule = collect_beat_schedule()
    tasks = {entry["task"] for name, entry in schedule.items() if name.startswith("sms-")}
    assert tasks == {
        "sms.tasks.sync_reports",
        "sms.tasks.sync_templates_and_quota",
        "sms.tasks.resume_stalled_campaigns",
        "sms.tasks.start_due_campaigns",
        "sms.tasks.discard_stale_drafts",
        "sms.tasks.secure_kept_files",
        "sms.tasks.maintain_message_table",
        "sms.tasks.count_report_totals",
        "sms.tasks.fold_campaign_status_counts",
    }
