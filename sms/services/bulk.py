"""Writing many Message rows fast: COPY on PostgreSQL, bulk_create elsewhere.

An import of 100,000 lines must be stored in seconds (bench/sms_import.py). Django's
bulk_create spends most of that time building model instances and preparing every value;
PostgreSQL's COPY takes plain text lines. Both paths write the same columns with the same
values, inside the caller's transaction.

`MessageSink` keeps one COPY open across batches: the server stores a batch (most of its work
is the table's indexes) while this process judges the next lines, instead of each waiting for
the other at the end of every batch, which made the import the sum of both times rather than
the longer of them. No other query may run on the connection while a COPY is open, so the
sink is closed before any other write (`close`), and reopened by the next batch.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, NamedTuple, cast

from django.db import connection
from django.db.models import Field

from sms.models import Message


class MessageRow(NamedTuple):
    campaign_id: int
    chunk_id: int
    line_number: int | None
    mobile: str
    vars: str
    text: str
    units: int
    carrier: str
    status: str
    created_at: datetime


_COLUMNS = (*MessageRow._fields, "error_code")
BATCH_SIZE = 2000
# COPY's text format: these characters are written as backslash escapes.
_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"})


def insert_messages(rows: Sequence[MessageRow]) -> None:
    if not rows:
        return
    if connection.vendor == "postgresql":
        _copy(rows)
    else:
        Message.objects.bulk_create(
            [Message(error_code="", **row._asdict()) for row in rows], batch_size=BATCH_SIZE
        )


def _escaped(value: str) -> str:
    # Most values need no escape; looking is much cheaper than translating.
    if "\\" in value or "\t" in value or "\n" in value or "\r" in value:
        return value.translate(_COPY_ESCAPES)
    return value


def _copy_line(row: MessageRow, created_at: str) -> str:
    line_number = "\\N" if row.line_number is None else str(row.line_number)
    return (
        f"{row.campaign_id}\t{row.chunk_id}\t{line_number}\t{row.mobile}\t"
        f"{_escaped(row.vars)}\t{_escaped(row.text)}\t"
        f"{row.units}\t{row.carrier}\t{row.status}\t{created_at}\t\n"
    )


def _copy_statement() -> str:
    table = connection.ops.quote_name(Message._meta.db_table)
    columns = ", ".join(
        # Every copied name is a concrete field, never a relation's reverse side.
        connection.ops.quote_name(cast("Field[Any, Any]", Message._meta.get_field(name)).column)
        for name in _COLUMNS
    )
    return f"COPY {table} ({columns}) FROM STDIN"


def _copy_text(rows: Sequence[MessageRow], stamps: dict[datetime, str]) -> str:
    lines = []
    for row in rows:
        stamp = stamps.get(row.created_at)
        if stamp is None:
            stamp = stamps[row.created_at] = row.created_at.isoformat()
        lines.append(_copy_line(row, stamp))
    return "".join(lines)


def _copy(rows: Sequence[MessageRow]) -> None:
    # The psycopg cursor under Django's wrapper speaks COPY.
    with connection.cursor() as cursor, cursor.cursor.copy(_copy_statement()) as copy:
        copy.write(_copy_text(rows, {}))


class MessageSink:
    """Writes batches of rows like insert_messages, through one COPY held open between them.

    Use as a context manager (an error aborts the open COPY, so the transaction can roll
    back); call `close()` before running any other query on the connection.
    """

    def __init__(self) -> None:
        self._open: contextlib.ExitStack | None = None
        self._copy: Any = None
        self._stamps: dict[datetime, str] = {}
        self._streams = connection.vendor == "postgresql"

    def write(self, rows: Sequence[MessageRow]) -> None:
        if not rows:
            return
        if not self._streams:
            insert_messages(rows)
            return
        if self._open is None:
            self._open = contextlib.ExitStack()
            cursor = self._open.enter_context(connection.cursor())
            self._copy = self._open.enter_context(cursor.cursor.copy(_copy_statement()))
        self._copy.write(_copy_text(rows, self._stamps))

    def close(self) -> None:
        """Finish the open COPY (the server has then stored every row written)."""
        if self._open is not None:
            opened, self._open, self._copy = self._open, None, None
            opened.close()

    def __enter__(self) -> MessageSink:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._open is not None:
            opened, self._open, self._copy = self._open, None, None
            # With an error the COPY is cancelled (psycopg sends CopyFail), not committed.
            opened.__exit__(kind, error, trace)


class SendOutcome(NamedTuple):
    """What one number's send answer writes on its message."""

    message_id: int
    status: str
    provider_message_id: int | None
    error_code: str


def record_outcomes(outcomes: Sequence[SendOutcome], changed_at: datetime) -> None:
    """Write send answers onto messages still `submitting` (any other state is left alone).

    On PostgreSQL one UPDATE joins the answers as arrays: Django's bulk_update writes a
    CASE with a branch per row for every column, which PostgreSQL evaluates row by row, so a
    call of 1,000 numbers cost about a second of building and evaluating SQL, ten times the
    call itself (bench/campaign_send.py).
    """
    if not outcomes:
        return
    if connection.vendor != "postgresql":
        Message.objects.filter(status="submitting").bulk_update(
            [
                Message(
                    pk=outcome.message_id,
                    status=outcome.status,
                    provider_message_id=outcome.provider_message_id,
                    error_code=outcome.error_code,
                    status_changed_at=changed_at,
                )
                for outcome in outcomes
            ],
            ["status", "provider_message_id", "error_code", "status_changed_at"],
            batch_size=500,
        )
        return
    table = connection.ops.quote_name(Message._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS m SET status = v.status, provider_message_id = v.provider_id,"
            " error_code = v.error_code, status_changed_at = %s"
            " FROM unnest(%s::bigint[], %s::text[], %s::bigint[], %s::text[])"
            " AS v(id, status, provider_id, error_code)"
            " WHERE m.id = v.id AND m.status = 'submitting'",
            [
                changed_at,
                [outcome.message_id for outcome in outcomes],
                [outcome.status for outcome in outcomes],
                [outcome.provider_message_id for outcome in outcomes],
                [outcome.error_code for outcome in outcomes],
            ],
        )


def mark_submitting(chunk_id: int, ids: Sequence[int], now: datetime) -> dict[int, str]:
    """Move the still-queued messages among `ids` (all of chunk `chunk_id`) to `submitting`;
    {id: mobile} of those moved.

    One `UPDATE ... RETURNING` on PostgreSQL, instead of an update and a second read of the
    same (up to 1,000) rows. The chunk bounds the rows the update looks at: without it, right
    after an import (no statistics yet) PostgreSQL reads every queued message of every
    campaign through the status index. The ids go as `bigint[]`, the column's own type: with
    the `smallint[]` or `integer[]` psycopg would pick for small ids, the `= ANY` test is a
    linear search of the array for every row, and marking 1,000 numbers took 80 ms instead of
    10 (bench/campaign_send.py).
    """
    if connection.vendor != "postgresql":
        queued = Message.objects.filter(chunk_id=chunk_id, pk__in=ids, status="queued")
        queued.update(status="submitting", submitted_at=now)
        return dict(
            Message.objects.filter(pk__in=ids, status="submitting").values_list("id", "mobile")
        )
    table = connection.ops.quote_name(Message._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET status = 'submitting', submitted_at = %s"
            " WHERE chunk_id = %s AND id = ANY(%s::bigint[]) AND status = 'queued'"
            " RETURNING id, mobile",
            [now, chunk_id, list(ids)],
        )
        return dict(cursor.fetchall())
