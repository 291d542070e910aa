"""The message table by month, on PostgreSQL: one partition a local month of `created_at`.

A merchant sending millions of messages a month keeps tens of millions of rows; partitions
let an old month go at once (`DROP TABLE` of its partition, sms.services.retention) instead of
a DELETE that bloats the table, and keep each month's indexes the size of a month.

Shape (made by migration 0009 from the plain table, kept here):
- `sms_message` is partitioned by range of `created_at`; its primary key is (id, created_at),
  since PostgreSQL wants the partition key in every unique index. Ids still come from the one
  identity sequence, so `id` alone stays unique, which is all the ORM assumes. The unique index
  on `provider_message_id` is (provider_message_id, created_at) for the same reason.
- `sms_message_y2026m11` holds the messages created in November 2026 (local time, the time
  zone of every date the staff pages show), `sms_message_default` anything no month holds
  (a row with a date far in the past or future), so an insert never fails for want of a
  partition.
- `ensure_months` creates the months ahead (a daily beat job); a month created while the
  default partition holds some of its rows takes those rows over.

Elsewhere (SQLite) the table is a plain one and these functions do nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time

from django.db import connection, transaction
from django.utils import timezone

from sms.services import status_counts

# The same names as migration 0009, which made the first partitions.
TABLE = "sms_message"
DEFAULT_PARTITION = f"{TABLE}_default"
MONTHS_AHEAD = 3  # partitions made in advance: a missed day of the daily job loses nothing
_MONTH_NAME = re.compile(rf"^{TABLE}_y(\d{{4}})m(\d{{2}})$")


@dataclass(frozen=True, order=True)
class Month:
    year: int
    month: int

    @classmethod
    def of(cls, moment: datetime | date) -> Month:
        day = timezone.localtime(moment).date() if isinstance(moment, datetime) else moment
        return cls(day.year, day.month)

    @classmethod
    def current(cls) -> Month:
        return cls.of(timezone.localdate())

    def plus(self, months: int) -> Month:
        index = self.year * 12 + self.month - 1 + months
        return Month(index // 12, index % 12 + 1)

    @property
    def start(self) -> datetime:
        """Local midnight of the month's first day."""
        return timezone.make_aware(datetime.combine(date(self.year, self.month, 1), time.min))

    @property
    def end(self) -> datetime:
        return self.plus(1).start

    @property
    def first_day(self) -> date:
        return date(self.year, self.month, 1)

    @property
    def partition(self) -> str:
        return f"{TABLE}_y{self.year:04d}m{self.month:02d}"

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"


def is_partitioned() -> bool:
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT relkind FROM pg_class WHERE oid = to_regclass(%s)", [TABLE])
        row = cursor.fetchone()
    return row is not None and row[0] == "p"


def months() -> list[Month]:
    """The months that have a partition, oldest first (none when the table is plain)."""
    if not is_partitioned():
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT child.relname FROM pg_inherits JOIN pg_class child ON child.oid = inhrelid"
            " WHERE inhparent = to_regclass(%s)", [TABLE])
        names = [row[0] for row in cursor.fetchall()]
    found = [_MONTH_NAME.match(name) for name in names]
    return sorted(Month(int(match[1]), int(match[2])) for match in found if match)


def ensure_months(until: Month | None = None, since: Month | None = None) -> list[Month]:
    """Create the partitions of the months from `since` (default: this one) to `until`
    (default: MONTHS_AHEAD months ahead) that do not exist yet; the ones made."""
    if not is_partitioned():
        return []
    first = since or Month.current()
    last = until or Month.current().plus(MONTHS_AHEAD)
    existing = set(months())
    made = []
    month = first
    while month <= last:
        if month not in existing:
            _create(month)
            made.append(month)
        month = month.plus(1)
    return made


def _create(month: Month) -> None:
    bounds = [month.start, month.end]
    with transaction.atomic(), connection.cursor() as cursor:
        # Rows of this month in the default partition would make the CREATE fail (the default
        # would no longer satisfy its constraint): they move into the new month first, with
        # the default detached meanwhile (a lock on the table for as long as the move takes;
        # normally the default is empty and this is instant).
        cursor.execute(
            f"SELECT EXISTS (SELECT 1 FROM {DEFAULT_PARTITION}"
            " WHERE created_at >= %s AND created_at < %s)", bounds)
        stray = cursor.fetchone()[0]
        if stray:
            cursor.execute(f"ALTER TABLE {TABLE} DETACH PARTITION {DEFAULT_PARTITION}")
        cursor.execute(
            f"CREATE TABLE {month.partition} PARTITION OF {TABLE}"
            " FOR VALUES FROM (%s) TO (%s)", bounds)
        if stray:
            cursor.execute(
                f"WITH moved AS (DELETE FROM {DEFAULT_PARTITION}"
                " WHERE created_at >= %s AND created_at < %s RETURNING *)"
                f" INSERT INTO {month.partition} SELECT * FROM moved", bounds)
            cursor.execute(f"ALTER TABLE {TABLE} ATTACH PARTITION {DEFAULT_PARTITION} DEFAULT")


def drop(month: Month) -> None:
    """Remove a month's partition and its rows at once (retention, after the archive), and
    its messages from the campaigns' kept counts, which a DROP does not tell."""
    if month in months():
        with transaction.atomic(), connection.cursor() as cursor:
            status_counts.forget(month.partition)
            cursor.execute(f"DROP TABLE {month.partition}")
