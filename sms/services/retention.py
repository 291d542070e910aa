"""Messages older than SMS_MESSAGE_RETENTION_MONTHS leave the table, archived first.

Each month before the first kept one goes in three steps:
1. its messages are written as the delivery report's CSV (the same columns and wording as an
   export, newest first) to a temporary file, counted as they go;
2. the file is saved in the private file storage (the folder of kept files: the bucket's
   private folder with FILE_STORAGE=bucket);
3. in one transaction: the month is counted again, and only when nothing was added meanwhile
   its archive row and audit entry are written and its rows removed (its partition dropped on
   PostgreSQL, a DELETE elsewhere or for rows in the default partition).
A run that stops before step 3 commits leaves the rows where they were and at worst a file
nobody points at; the next run archives the month again. Nothing is removed unarchived.
"""

from __future__ import annotations

import logging
import tempfile
from dataclasses import dataclass
from typing import IO

from django.conf import settings
from django.core.files import File
from django.db import connection, transaction
from django.db.models import QuerySet

from backoffice.security.audit import record
from sms.models import Message, MessageArchive
from sms.services import partitions
from sms.services.partitions import Month
from sms.services.search import messages_csv_bytes

logger = logging.getLogger(__name__)


class MonthChanged(Exception):
    """Messages were added to a month while it was being archived: it is left for next time."""


class OrphanMessages(Exception):
    """A month holds messages whose campaign is gone: the report's CSV (which names each
    message's template) cannot hold them, so the month is left as it is for a person."""


@dataclass(frozen=True)
class RetentionRun:
    archived: list[MessageArchive]
    dropped_empty: list[Month]


def kept_from() -> Month:
    """The oldest month whose messages stay in the table."""
    return Month.current().plus(1 - settings.SMS_MESSAGE_RETENTION_MONTHS)


def archive_old_months() -> RetentionRun:
    """Archive and remove every month older than `kept_from()`; empty old partitions go too."""
    first_kept = kept_from()
    archived, dropped = [], []
    for month in _old_months(first_kept):
        messages = _of(month)
        if not messages.exists():
            if month in partitions.months():
                partitions.drop(month)
                dropped.append(month)
            continue
        try:
            archived.append(_archive(month))
        except MonthChanged:
            logger.warning("SMS retention: messages of %s changed while archived; next run",
                           month)
        except OrphanMessages:
            logger.error("SMS retention: %s holds messages without their campaign; the month "
                         "stays in the table", month)
    return RetentionRun(archived, dropped)


def _of(month: Month) -> QuerySet[Message]:
    return Message.objects.filter(created_at__gte=month.start, created_at__lt=month.end)


def _old_months(first_kept: Month) -> list[Month]:
    """The months before `first_kept` that may hold messages: their partitions, and those of
    rows outside any partition (the default one, or a plain table), found by the oldest row
    (ids grow with time, and the primary key's index finds it at once)."""
    found = {month for month in partitions.months() if month < first_kept}
    oldest = (Message.objects.filter(created_at__lt=first_kept.start)
              .order_by("id").values_list("created_at", flat=True).first())
    if oldest is not None:
        month = Month.of(oldest)
        while month < first_kept:
            found.add(month)
            month = month.plus(1)
    return sorted(found)


def _archive(month: Month) -> MessageArchive:
    with tempfile.TemporaryFile() as spool:
        rows = _write_csv(month, spool)
        archive = MessageArchive(month=month.first_day, rows=rows, size=spool.tell())
        spool.seek(0)
        archive.file.save(f"messages-{month}.csv", File(spool), save=False)
    try:
        with transaction.atomic():
            if _of(month).count() != rows:
                raise MonthChanged(str(month))
            archive.save()
            _remove(month)
            record("sms", "messages.archive", target=archive,
                   summary=f"{month}: {rows} messages archived to {archive.file.name} "
                           "and removed from the table")
    except BaseException:
        archive.file.delete(save=False)  # nobody will point at it
        raise
    logger.info("SMS retention: %s archived (%s messages) and removed", month, rows)
    return archive


def _write_csv(month: Month, spool: IO[bytes]) -> int:
    """The month's report CSV into `spool`; how many messages it holds."""
    rows = _of(month).count()
    if _of(month).filter(campaign__template__isnull=False).count() != rows:
        raise OrphanMessages(str(month))
    for block in messages_csv_bytes(_of(month)):
        spool.write(block)
    return rows


def _remove(month: Month) -> None:
    """The month's rows out of the table: its partition at once when it has one, and any row
    of it elsewhere (the default partition, a plain table) by a DELETE."""
    if month in partitions.months():
        partitions.drop(month)
    if connection.vendor == "postgresql":
        # A plain DELETE: the ORM's delete() would first collect the rows for signals.
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {partitions.TABLE} WHERE created_at >= %s"
                           " AND created_at < %s", [month.start, month.end])
    else:
        _of(month).delete()


def archives() -> QuerySet[MessageArchive]:
    """Archived months, newest first (the report page lists them)."""
    return MessageArchive.objects.order_by("-month", "-id")


def open_archive(pk: int) -> tuple[MessageArchive, IO[bytes]]:
    """An archived month's CSV, opened for download, audited (whoever reads it reads every
    message of a month). MessageArchive.DoesNotExist for an unknown one."""
    archive = MessageArchive.objects.get(pk=pk)
    opened = archive.file.open("rb")
    record("sms", "messages.archive.download", target=archive,
           summary=f"{archive.month:%Y-%m}: {archive.rows} messages")
    return archive, opened
