"""Report sync reaches every open message, however many newer records stand in front of it:
it reads the report one Asia/Shanghai day at a time (only the days that still have open
messages), asks per number when few are open, carries on where the previous run stopped when
a day is long, and never runs twice at once."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from sms import services
from sms.models import Campaign, Chunk, Message, MessageStatus, Template
from sms.services import reports
from tests.sms.conftest import local_template, provider_send, sandbox_settings

pytestmark = pytest.mark.django_db

SHANGHAI = ZoneInfo("Asia/Shanghai")


def numbers(count: int, prefix: str = "1391") -> list[str]:
    return [f"{prefix}{n:07d}" for n in range(count)]


def send(template, mobiles: list[str]) -> None:
    good = services.preview_recipients(template, "\n".join(mobiles), ["1"]).good
    services.send_recipients(template, good)


def open_count() -> int:
    return Message.objects.filter(status=MessageStatus.PROCESSING).count()


@pytest.fixture
def delivered_then_buried(provider, sms_template):
    """Returns a function: our messages are sent and delivered at the provider, then 350
    records we know nothing about are sent after them (newest first, they come first)."""

    def make(count: int, advance_s: float = 6) -> Template:
        sandbox_settings(provider, general=100_000, delivery_delay_s=5, failure_rate=0.0)
        template = sms_template()
        send(template, numbers(count))
        provider.advance(advance_s)
        provider_send(provider, template, numbers(350, prefix="1372"), "9")
        assert open_count() == count
        return template

    return make


def test_a_message_behind_more_records_than_a_run_reads_is_reached(delivered_then_buried):
    delivered_then_buried(1)

    result = services.sync_reports(max_pages=3)

    assert result.moved == {"success": 1} and open_count() == 0


def test_many_open_messages_behind_a_long_day_are_reached_over_several_runs(
    delivered_then_buried,
):
    delivered_then_buried(25)

    first = services.sync_reports(max_pages=3)
    second = services.sync_reports(max_pages=3)

    # The first run reads 300 records of other systems; the second carries on from there.
    assert first.pages == 3 and first.moved_total == 0
    assert second.moved == {"success": 25} and open_count() == 0


def test_an_open_message_of_an_earlier_day_is_read_from_that_day_only(delivered_then_buried):
    # The provider's day has moved on and today's records stand in front of ours; asking for
    # our messages' day skips them all.
    delivered_then_buried(25, advance_s=24 * 3600)

    result = services.sync_reports(max_pages=1)

    assert result.moved == {"success": 25} and open_count() == 0


def test_a_sync_while_another_runs_reads_nothing(delivered_then_buried):
    delivered_then_buried(1)
    holder = reports.take_lease()
    assert holder is not None

    busy = services.sync_reports()

    assert busy.busy and busy.pages == 0 and open_count() == 1
    reports.release_lease(holder)
    assert services.sync_reports().moved == {"success": 1}


def open_message_at(campaign: Campaign, chunk: Chunk, when: datetime, number: int) -> None:
    Message.objects.create(
        campaign=campaign,
        chunk=chunk,
        mobile=f"1380000{number:04d}",
        text="x",
        units=1,
        status=MessageStatus.PROCESSING,
        provider_message_id=number,
        submitted_at=when,
    )


def test_the_days_read_are_those_of_open_messages_with_the_clock_skew(db):
    template = local_template()
    campaign = Campaign.objects.create(template=template, source="form", state="done")
    chunk = Chunk.objects.create(campaign=campaign, number=1, size=3, state="sent")
    today = timezone.now().astimezone(SHANGHAI).date()
    two_days_ago = today - timedelta(days=2)
    yesterday = today - timedelta(days=1)
    # Near midnight: the provider's clock may put it on either day.
    open_message_at(
        campaign, chunk, datetime.combine(two_days_ago, datetime.max.time(), SHANGHAI), 1
    )
    noon = datetime.combine(today, datetime.min.time(), SHANGHAI) + timedelta(hours=12)
    open_message_at(campaign, chunk, noon, 2)
    Message.objects.create(  # final: not a reason to read its day
        campaign=campaign,
        chunk=chunk,
        mobile="13800009999",
        text="x",
        units=1,
        status=MessageStatus.SUCCESS,
        provider_message_id=3,
        submitted_at=timezone.now() - timedelta(days=4),
    )

    days = reports.report_days(timezone.now() - timedelta(days=7))

    assert days == [two_days_ago, yesterday, today]
