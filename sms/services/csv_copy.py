"""CSV exports written by PostgreSQL's `COPY ... TO STDOUT`, byte for byte as csv_export writes.

A million-row export through Python (a model or a tuple per row, a csv.writer call, three
timestamps localised and formatted) runs at about a hundredth of the speed PostgreSQL writes
the same rows itself. Here the database does all of it: the cells are shaped in SQL and COPY
writes the CSV, which this module only relays in large blocks, so memory stays flat whatever
the size of the export.

The shaping reproduces `csv_export.csv_lines` exactly (tests/sms/test_sms_csv_copy.py checks
both against each other):
- `guarded(field)`: a text cell starting as a formula gets a leading apostrophe (the formula
  guard), and an empty text becomes NULL, because COPY writes an empty string as `""` but NULL
  as nothing, which is what csv.writer writes for "";
- `local_time(field)`: the timestamp in the current time zone, to the second, as strftime;
- `blank_zero(field)`: NULL for 0, as `value or ""` does.
COPY quotes a cell exactly when csv.writer's QUOTE_MINIMAL does (delimiter, quote, CR or LF
inside; a lone `\\.` is quoted only in one-column output, which these exports never are) and
doubles quotes alike. Only the line ends differ: COPY ends a row with LF, csv.writer with CRLF,
and libpq hands COPY data over one row at a time, so each row's last byte is replaced.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from django.db import connection
from django.db.models import (
    CharField,
    Expression,
    F,
    Func,
    IntegerField,
    QuerySet,
    TextField,
    Value,
)
from django.utils import timezone

from backoffice.ui import csv_export

BLOCK_BYTES = 256 * 1024  # bytes handed to the response at a time


class _Guarded(Func):
    """The formula guard of csv_export.safe_cell, in SQL; "" becomes NULL (see above)."""

    output_field = TextField()

    def as_sql(self, compiler, connection, **extra_context):  # type: ignore[no-untyped-def, override]
        inner, params = compiler.compile(self.source_expressions[0])
        marks = ", ".join(["%s"] * len(csv_export.FORMULA_STARTS))
        sql = (
            f"CASE WHEN left({inner}, 1) IN ({marks}) THEN %s || {inner} "
            f"ELSE NULLIF({inner}, '') END"
        )
        return sql, (*params, *csv_export.FORMULA_STARTS, "'", *params, *params)


def guarded(field: str) -> Func:
    return _Guarded(F(field))


def guarded_expression(expression: Expression) -> Func:
    """The formula guard around any text expression (a computed label, say)."""
    return _Guarded(expression)


def local_time(field: str) -> Func:
    """'YYYY-MM-DD HH:MM:SS' in the current time zone; NULL stays NULL (an empty cell)."""
    local = Func(
        Value(timezone.get_current_timezone_name()), F(field), function="timezone",
        output_field=CharField(),
    )
    return Func(local, Value("YYYY-MM-DD HH24:MI:SS"), function="to_char", output_field=CharField())


def blank_zero(field: str) -> Func:
    return Func(F(field), Value(0), function="NULLIF", output_field=IntegerField())


def copy_csv(header: Sequence[str], rows: QuerySet[Any]) -> Iterator[bytes]:
    """The BOM, the header and every row of `rows` (a values_list queryset), as CSV bytes.

    `rows` must already hold the shaped cells, in order (see guarded, local_time, blank_zero).
    """
    yield "".join(csv_export.head_lines(header)).encode()
    sql, params = rows.query.sql_with_params()
    # PostgreSQL's operations only (the caller checks the vendor); the stubs know the base.
    statement = connection.ops.compose_sql(sql, params)  # type: ignore[attr-defined]
    block = bytearray()
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY ({statement}) TO STDOUT (FORMAT csv)") as copy,
    ):
        for row in copy:
            # One row per read (libpq's contract): its last byte is the LF that ends it.
            block += row[:-1]
            block += b"\r\n"
            if len(block) >= BLOCK_BYTES:
                yield bytes(block)
                block.clear()
    if block:
        yield bytes(block)
