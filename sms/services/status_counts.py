"""Each campaign's messages by status, kept by PostgreSQL as messages change.

The campaign page of a campaign still sending or awaiting reports shows its numbers by heading,
polled every two seconds while it is open. Counting them from the messages reads every one of
the campaign's rows: 0.7 s for a campaign of two million numbers (bench/report_scale.py
--scale 10). Here the database keeps the counts instead, in CampaignStatusCount:

- statement-level triggers on the message table (migration 0015) add, in the same statement
  that inserts, updates or deletes messages, one row per campaign and status whose count
  changed, with the change (+n or -n), read from the statement's transition tables. Every
  path that changes a message is counted (the import's COPY, the sender, the report sync, a
  cancel, a campaign's delete), with no code of ours to forget, and a transaction that rolls
  back takes its rows with it.
- rows are only added, never updated, so writers never wait on one another for a counter;
- `fold` (a beat job) makes each busy campaign's rows into one per status again, so a read
  sums a handful of rows.

What does not pass through the message table's statements is made to match: a month's
partition dropped by the retention job is taken off its campaigns' counts first (`forget`), as
a DELETE of its rows would be, so the counts are always those of the table (a settled
campaign's page keeps its own on its row); rows the partition maintenance moves between
partitions are the same messages and change nothing. TRUNCATE of the table forgets every
count, as it forgets the messages.

Elsewhere (SQLite, for development) nothing is kept and the page counts the messages.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import QuerySet, Sum

from sms.models import CampaignStatusCount

TABLE = CampaignStatusCount._meta.db_table


def kept() -> bool:
    """Whether the database keeps the counts (PostgreSQL)."""
    return connection.vendor == "postgresql"


def of_campaign(campaign_id: int) -> dict[str, int] | None:
    """The campaign's messages by status (statuses with none left out), or None when the
    database does not keep them."""
    return _summed(CampaignStatusCount.objects.filter(campaign_id=campaign_id))


def by_status() -> dict[str, int] | None:
    """Every message in the table by status (the metrics' gauge), or None when not kept."""
    return _summed(CampaignStatusCount.objects.all())


def _summed(rows: QuerySet[CampaignStatusCount]) -> dict[str, int] | None:
    if not kept():
        return None
    sums = rows.values("status").annotate(total=Sum("n")).order_by()
    return {row["status"]: row["total"] for row in sums if row["total"]}


def fold() -> int:
    """Make the rows of every campaign with more than one row for a status into one row per
    status (none for a status whose changes cancel out); how many rows went.

    One statement: the DELETE's snapshot does not see rows the triggers add meanwhile, which
    stay for the next fold, and a second fold running at once skips the rows the first took.
    """
    if not kept():
        return 0
    with connection.cursor() as cursor:
        cursor.execute(f"""
            WITH busy AS (
                SELECT campaign_id FROM {TABLE} GROUP BY campaign_id
                HAVING count(*) > count(DISTINCT status) OR bool_or(n = 0)
            ), gone AS (
                DELETE FROM {TABLE} WHERE campaign_id IN (SELECT campaign_id FROM busy)
                RETURNING campaign_id, status, n
            ), kept AS (
                INSERT INTO {TABLE} (campaign_id, status, n)
                SELECT campaign_id, status, sum(n) FROM gone GROUP BY campaign_id, status
                HAVING sum(n) <> 0
                RETURNING 1
            )
            SELECT (SELECT count(*) FROM gone) - (SELECT count(*) FROM kept)
        """)
        return int(cursor.fetchone()[0])


def forget(partition: str) -> None:
    """Take a partition's messages off the counts, before it is dropped (in the same
    transaction as the DROP)."""
    if not kept():
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {TABLE} (campaign_id, status, n) SELECT campaign_id, status, -count(*)"
            f" FROM {connection.ops.quote_name(partition)} GROUP BY campaign_id, status")
