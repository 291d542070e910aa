"""On PostgreSQL, every status filter of the delivery report is served by an index, so a page
of queued, processing or unknown-status messages does not scan a table of delivered ones."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from sms.models import Campaign, Chunk, Message, MessageStatus
from sms.services import search
from tests.sms.conftest import local_template

pytestmark = pytest.mark.django_db

DELIVERED = 20_000


@pytest.fixture
def mostly_delivered(postgres):
    template = local_template()
    campaign = Campaign.objects.create(template=template, source="form", state="sending")
    chunk = Chunk.objects.create(campaign=campaign, number=1, size=DELIVERED, state="sent")
    now = timezone.now()
    statuses = [MessageStatus.SUCCESS] * DELIVERED + [
        MessageStatus.QUEUED,
        MessageStatus.PROCESSING,
        "carrier_queued",
    ] * 5
    Message.objects.bulk_create(
        [
            Message(
                campaign=campaign,
                chunk=chunk,
                mobile=f"138{n:08d}",
                text="x",
                units=1,
                status=status,
                provider_message_id=None if status == MessageStatus.QUEUED else n + 1,
                submitted_at=None if status == MessageStatus.QUEUED else now,
            )
            for n, status in enumerate(statuses)
        ],
        batch_size=5000,
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE sms_message")


def by_table_index(plan: str) -> str:
    """The plan with each month's index named as the table's index it belongs to (the table
    is partitioned by month: sms.services.partitions)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT child.relname, parent.relname FROM pg_inherits"
            " JOIN pg_class child ON child.oid = inhrelid"
            " JOIN pg_class parent ON parent.oid = inhparent WHERE child.relkind = 'i'")
        for child, parent in cursor.fetchall():
            plan = plan.replace(child, parent)
    return plan


def plan(status: str) -> str:
    rows = search.filtered(search.Filters(status=status)).order_by("-id")[: search.PAGE_SIZE + 1]
    return by_table_index(rows.explain())


@pytest.mark.parametrize(
    ("status", "index"),
    [
        (MessageStatus.QUEUED, "sms_message_status"),
        (MessageStatus.PROCESSING, "sms_message_status"),
        (MessageStatus.FAILED, "sms_message_status"),
        (search.UNKNOWN_STATUS, "sms_message_unknown_status"),
    ],
)
def test_a_status_filter_reads_its_index(mostly_delivered, status, index):
    assert index in plan(status), plan(status)


@pytest.mark.parametrize("prefix", ["1380001234", "138000123"])
def test_a_search_by_the_first_digits_reads_the_mobile_index_as_a_range(
    mostly_delivered, prefix
):
    rows = search.filtered(search.Filters(mobile=prefix)).order_by("-id")[: search.PAGE_SIZE + 1]

    assert "sms_message_mobile" in by_table_index(rows.explain()), rows.explain()
    assert "LIKE" not in str(rows.query).upper()
    matching = [f"138{n:08d}" for n in range(20_000) if f"138{n:08d}".startswith(prefix)]
    # Newest first, and the fixture numbers its messages in id order.
    assert [row.mobile for row in rows] == matching[::-1][: search.PAGE_SIZE + 1]


def test_the_campaign_pages_invalid_numbers_are_read_from_their_own_index(mostly_delivered):
    from sms.services.suppression import _invalid_numbers

    campaign = Campaign.objects.get()
    Message.objects.filter(pk__in=Message.objects.order_by("id").values("pk")[:3]).update(
        status=MessageStatus.REJECTED, error_code="ILLEGAL_MOBILE")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE sms_message")

    invalid = _invalid_numbers(campaign).values("mobile").distinct()

    assert "sms_message_invalid" in by_table_index(invalid.explain()), invalid.explain()
    assert invalid.count() == 3
