"""Writing many Message rows fast: COPY on PostgreSQL, bulk_create elsewhere.

An import of 100,000 lines must be stored in seconds (bench/sms_import.py). Django's
bulk_create spends most of that time building model instances and preparing every value;
PostgreSQL's COPY takes plain text lines. Both paths write the same columns with the same
values, inside the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple, cast

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


def _copy(rows: Sequence[MessageRow]) -> None:
    table = connection.ops.quote_name(Message._meta.db_table)
    columns = ", ".join(
        # Every copied name is a concrete field, never a relation's reverse side.
        connection.ops.quote_name(cast(Field, Message._meta.get_field(name)).column)
        for name in _COLUMNS
    )
    stamps: dict[datetime, str] = {}
    lines = []
    for row in rows:
        stamp = stamps.get(row.created_at)
        if stamp is None:
            stamp = stamps[row.created_at] = row.created_at.isoformat()
        lines.append(_copy_line(row, stamp))
    # The psycopg cursor under Django's wrapper speaks COPY.
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy,
    ):
        copy.write("".join(lines))
