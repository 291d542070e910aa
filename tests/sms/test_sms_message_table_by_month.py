"""On PostgreSQL the message table is partitioned by local month of `created_at`: a partition
for each month from this one to three ahead, a default one for anything else, rows moved by
the migration without loss (and back), and a month made later takes over its stray rows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from sms.models import Message
from sms.services import partitions
from sms.services.partitions import DEFAULT_PARTITION, Month

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="partitions are PostgreSQL's"),
]

BEFORE = ("sms", "0008_kept_files_private")
PARTITIONED = ("sms", "0009_message_partitions")


def message(created_at: datetime, mobile: str = "13800138000", **fields) -> Message:
    # campaign and chunk carry no database constraint (see the model): any number will do
    return Message.objects.create(campaign_id=1, chunk_id=1, mobile=mobile, text="t", units=1,
                                  created_at=created_at, **fields)


def partition_of(pk: int) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT tableoid::regclass::text FROM sms_message WHERE id = %s", [pk])
        return cursor.fetchone()[0]


def test_the_table_has_this_month_three_ahead_and_a_default():
    assert partitions.is_partitioned()
    now = Month.current()
    assert {now.plus(n) for n in range(4)} <= set(partitions.months())
    assert partition_of(message(timezone.now()).pk) == now.partition
    assert partition_of(message(timezone.now() - timedelta(days=3650)).pk) == DEFAULT_PARTITION


def test_month_boundaries_are_local_midnight():
    month = Month(2026, 11)
    assert timezone.localtime(month.start).replace(tzinfo=None) == datetime(2026, 11, 1)
    assert month.end == Month(2026, 12).start
    assert Month(2026, 12).plus(1) == Month(2027, 1) and Month(2027, 1).plus(-1) == Month(2026, 12)
    late_evening_utc = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)
    assert Month.of(late_evening_utc) == Month(2026, 12)  # 01:00 on 1 December in Beijing


def test_a_month_made_later_takes_over_its_rows_from_the_default_partition():
    far = Month.current().plus(30)
    stray = message(far.start + timedelta(days=2))
    assert partition_of(stray.pk) == DEFAULT_PARTITION

    assert partitions.ensure_months(until=far, since=far) == [far]

    assert partition_of(stray.pk) == far.partition
    assert Message.objects.get(pk=stray.pk).mobile == stray.mobile
    assert partitions.ensure_months(until=far, since=far) == []  # once


def test_the_migration_moves_every_row_and_back_without_losing_one():
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps.get_model("sms", "Message")
    now = timezone.now()
    for back, status in ((0, "success"), (40, "failed"), (400, "queued"), (4000, "success")):
        old.objects.create(campaign_id=7, chunk_id=70, mobile=f"1390000{back:04d}", text="正文",
                           units=1, status=status, created_at=now - timedelta(days=back),
                           provider_message_id=back + 1)
    rows_before = sorted(old.objects.values_list(
        "id", "mobile", "text", "status", "created_at", "provider_message_id"))
    assert not partitions.is_partitioned()

    executor = MigrationExecutor(connection)
    executor.migrate([PARTITIONED])
    assert partitions.is_partitioned()
    new = executor.loader.project_state([PARTITIONED]).apps.get_model("sms", "Message")
    assert sorted(new.objects.values_list(
        "id", "mobile", "text", "status", "created_at", "provider_message_id")) == rows_before
    # the one sequence goes on past the moved ids
    later = new.objects.create(campaign_id=7, chunk_id=70, mobile="13900009999", text="t",
                               units=1, created_at=now)
    assert later.pk > max(row[0] for row in rows_before)

    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    assert not partitions.is_partitioned()
    assert old.objects.count() == len(rows_before) + 1

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert partitions.is_partitioned()
