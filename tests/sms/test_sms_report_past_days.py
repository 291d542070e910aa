"""A report of days wholly in the past is read through the send-date index (sorted on
`id + 0`), yet it pages exactly as any other search: newest first, both ways, nothing lost."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from sms.models import Campaign, Chunk, Message
from sms.services import search
from tests.sms.conftest import local_template

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent_last_week(db) -> list[int]:
    campaign = Campaign.objects.create(template=local_template(), source="form", state="done")
    chunk = Chunk.objects.create(campaign=campaign, number=1, size=1, state="sent")
    noon = timezone.make_aware(datetime.combine(timezone.localdate(), datetime.min.time()))
    rows = Message.objects.bulk_create(
        Message(
            campaign=campaign, chunk=chunk, mobile=f"139{n:08d}", text="x", units=1,
            status="success", provider_message_id=n + 1,
            # n < 70: a week ago; the rest today (newer, and outside the dates asked for).
            submitted_at=noon - timedelta(days=7 if n < 70 else 0, hours=-12),
        )
        for n in range(100)
    )
    return sorted((row.pk for row in rows[:70]), reverse=True)


def test_past_days_page_newest_first_both_ways(sent_last_week):
    day = timezone.localdate() - timedelta(days=7)
    filters = search.Filters(date_from=day, date_to=day)

    first = search.page(filters, size=30)
    second = search.page(filters, before=first.older_cursor, size=30)
    third = search.page(filters, before=second.older_cursor, size=30)
    back = search.page(filters, after=second.newer_cursor, size=30)

    assert [m.id for m in first.rows + second.rows + third.rows] == sent_last_week
    assert third.older_cursor is None
    assert [m.id for m in back.rows] == [m.id for m in first.rows]
    assert back.newer_cursor is None
