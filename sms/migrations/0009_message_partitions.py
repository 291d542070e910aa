"""The message table partitioned by month on PostgreSQL (sms.services.partitions says why and
how); nothing changes elsewhere.

Forwards, in one transaction (so a failure leaves the plain table as it was):
1. the plain table and its indexes are renamed aside;
2. the partitioned table is created like it (columns, defaults, checks, identity), with a
   partition for every local month from the oldest row's (at most MAX_PAST_MONTHS back; older
   rows go to the default partition) to MONTHS_AHEAD months ahead, and the default one;
3. every row is copied, the identity sequence set past the highest id, the indexes made
   again by their own definitions (a unique one gains `created_at`, as partitioning asks),
   and the plain table dropped.
Backwards does the opposite, so the migration tests can go both ways.

Django's state is left as it is: the model still names `id` as the key and
`provider_message_id` as unique. Ids come from one sequence and provider ids from the
provider, so both stay unique in fact; the database only checks the second per month.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.db import migrations

# As sms.services.partitions names them (a migration keeps its own copy: it must not change
# when the app does).
TABLE = "sms_message"
DEFAULT_PARTITION = f"{TABLE}_default"
ASIDE = f"{TABLE}_before_move"
MAX_PAST_MONTHS = 36
MONTHS_AHEAD = 3
# Each local month (the staff pages' time zone) from the oldest row's, at most MAX_PAST_MONTHS
# back, to MONTHS_AHEAD ahead: its partition's name and bounds.
MONTHS = f"""
    SELECT to_char(month, '"{TABLE}_y"YYYY"m"MM'), month AT TIME ZONE %(zone)s,
           (month + interval '1 month') AT TIME ZONE %(zone)s
    FROM generate_series(
        date_trunc('month', greatest(coalesce((SELECT min(created_at) FROM {ASIDE}), now()),
                                     now() - interval '{MAX_PAST_MONTHS} months')
                            AT TIME ZONE %(zone)s),
        date_trunc('month', now() AT TIME ZONE %(zone)s) + interval '{MONTHS_AHEAD} months',
        interval '1 month') AS month
"""
_INDEX_COLUMNS = re.compile(r"USING btree \(([^)]*)\)")


def _indexes(cursor, table: str) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """(name, definition) of the table's indexes but its primary key's."""
    cursor.execute(
        "SELECT i.relname, pg_get_indexdef(x.indexrelid) FROM pg_index x"
        " JOIN pg_class i ON i.oid = x.indexrelid"
        " WHERE x.indrelid = to_regclass(%s) AND NOT x.indisprimary ORDER BY i.relname",
        [table])
    return list(cursor.fetchall())


def _move_aside(cursor) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """Rename the table, its key and its indexes out of the way; the indexes' definitions as
    they read on the table's own name."""
    indexes = _indexes(cursor, TABLE)
    for name, _definition in indexes:
        cursor.execute(f'ALTER INDEX "{name}" RENAME TO "{name[:50]}_before_move"')
    cursor.execute(f"ALTER TABLE {TABLE} RENAME CONSTRAINT {TABLE}_pkey TO {ASIDE}_pkey")
    cursor.execute(f"ALTER TABLE {TABLE} RENAME TO {ASIDE}")
    return indexes


def _copy_rows_and_finish(cursor, indexes: list[tuple[str, str]], *, unique_extra: bool  # type: ignore[no-untyped-def]
                          ) -> None:
    cursor.execute(f"INSERT INTO {TABLE} SELECT * FROM {ASIDE}")
    cursor.execute(
        f"SELECT setval(pg_get_serial_sequence('{TABLE}', 'id'),"
        f" coalesce((SELECT max(id) FROM {TABLE}), 0) + 1, false)")
    for _name, definition in indexes:
        if " UNIQUE " in definition:
            definition = _INDEX_COLUMNS.sub(
                lambda found: f"USING btree ({_unique_columns(found[1], unique_extra)})",
                definition, count=1)
        cursor.execute(definition)
    cursor.execute(f"DROP TABLE {ASIDE}")
    # The new identity's sequence was named beside the old one's; it takes the usual name
    # back, which raw SQL (the benchmark's data set, a person's setval) knows.
    cursor.execute(f"SELECT pg_get_serial_sequence('{TABLE}', 'id')")
    if cursor.fetchone()[0] != f"public.{TABLE}_id_seq":
        cursor.execute(f"ALTER SEQUENCE {TABLE}_id_seq1 RENAME TO {TABLE}_id_seq")


def _unique_columns(columns: str, partitioned: bool) -> str:
    names = [name.strip() for name in columns.split(",") if name.strip() != "created_at"]
    return ", ".join([*names, "created_at"] if partitioned else names)


def _rebuild(schema_editor, *, partitioned: bool) -> None:  # type: ignore[no-untyped-def]
    """The table made again beside itself, partitioned by month or plain, its rows moved."""
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        indexes = _move_aside(cursor)
        cursor.execute(
            f"CREATE TABLE {TABLE} (LIKE {ASIDE} INCLUDING DEFAULTS INCLUDING CONSTRAINTS"
            " INCLUDING IDENTITY)" + (" PARTITION BY RANGE (created_at)" if partitioned else ""))
        key = "id, created_at" if partitioned else "id"
        cursor.execute(f"ALTER TABLE {TABLE} ADD CONSTRAINT {TABLE}_pkey PRIMARY KEY ({key})")
        if partitioned:
            cursor.execute(MONTHS, {"zone": settings.TIME_ZONE})
            for name, start, end in cursor.fetchall():
                cursor.execute(f"CREATE TABLE {name} PARTITION OF {TABLE}"
                               " FOR VALUES FROM (%s) TO (%s)", [start, end])
            cursor.execute(f"CREATE TABLE {DEFAULT_PARTITION} PARTITION OF {TABLE} DEFAULT")
        _copy_rows_and_finish(cursor, indexes, unique_extra=partitioned)


def partition(apps, schema_editor) -> None:  # type: ignore[no-untyped-def]
    _rebuild(schema_editor, partitioned=True)


def unpartition(apps, schema_editor) -> None:  # type: ignore[no-untyped-def]
    _rebuild(schema_editor, partitioned=False)


class Migration(migrations.Migration):
    dependencies = [("sms", "0008_kept_files_private")]

    operations = [migrations.RunPython(partition, unpartition, elidable=False)]
