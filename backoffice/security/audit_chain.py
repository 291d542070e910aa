"""The audit log's hash chain and its database guard.

Each entry stores the hash of the entry before it (`prev_hash`) and its own `hash`: the
SHA-256 of `prev_hash` and of its content, so changing, inserting or removing an entry
anywhere breaks the chain from there on (`verify_audit_chain` finds it). The content leaves out
the entry's id (unknown until the row is inserted) and `actor` (set to NULL when the person's
account is deleted; `actor_name` keeps the name as written).

The guard: triggers that refuse UPDATE, DELETE and (on PostgreSQL) TRUNCATE of the table,
created by migration `backoffice 0006`. The one UPDATE let through is the one Django makes
when a person's account is deleted: `actor` to NULL, nothing else changed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from django.db import connection as default_connection
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper

TABLE = "backoffice_auditentry"
# A fixed key for pg_advisory_xact_lock: the bytes of "AUDIT" read as a number.
CHAIN_LOCK_KEY = 0x4155444954


class Chained(Protocol):
    at: datetime
    actor_name: str
    address: str | None
    app: str
    action: str
    object_type: str
    object_id: str
    summary: str
    outcome: str
    prev_hash: str


def entry_hash(entry: Chained) -> str:
    """The hash of one entry. Never change this: every stored hash was computed with it (the
    migration that filled the existing entries calls it too)."""
    content = [
        entry.prev_hash,
        entry.at.astimezone(UTC).isoformat(timespec="microseconds"),
        entry.actor_name, entry.address or "", entry.app, entry.action, entry.object_type,
        entry.object_id, entry.summary, entry.outcome,
    ]
    encoded = json.dumps(content, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()


def lock_chain(connection: BaseDatabaseWrapper = default_connection) -> None:
    """Serializes appends until the current transaction ends, so that each new entry reads
    the hash of the one committed just before it. SQLite serializes writers by itself."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CHAIN_LOCK_KEY])


@dataclass(frozen=True)
class Break:
    """The first entry where the chain does not hold."""

    pk: int
    at: datetime
    field: str  # "prev_hash" (the link to the entry before) or "hash" (its own content)
    stored: str
    expected: str
    previous_pk: int | None


def first_break(entries: Iterator[Any]) -> tuple[Break | None, int, Any]:
    """Walks `entries` in id order: (the first break or None, how many were read, the last
    entry read). The first entry's link is taken as it is: older entries may be archived."""
    previous: Any = None
    count = 0
    for entry in entries:
        count += 1
        if previous is not None and entry.prev_hash != previous.hash:
            return Break(entry.pk, entry.at, "prev_hash", entry.prev_hash, previous.hash,
                         previous.pk), count, entry
        expected = entry_hash(entry)
        if entry.hash != expected:
            return Break(entry.pk, entry.at, "hash", entry.hash, expected,
                         previous.pk if previous is not None else None), count, entry
        previous = entry
    return None, count, previous


# --- the guard -------------------------------------------------------------------------------

_POSTGRES_FUNCTION = f"""
CREATE OR REPLACE FUNCTION backoffice_audit_append_only() RETURNS trigger AS $$
BEGIN
    -- Deleting a person's account sets actor to NULL (ON DELETE SET NULL, done by Django):
    -- the only change allowed; actor_name and the hash keep who it was.
    -- (Nested: NEW is unassigned in a DELETE or TRUNCATE trigger and may not be read there.)
    IF TG_OP = 'UPDATE' THEN
        IF NEW.actor_id IS NULL
                AND (to_jsonb(NEW) - 'actor_id') = (to_jsonb(OLD) - 'actor_id') THEN
            RETURN NEW;
        END IF;
    END IF;
    RAISE EXCEPTION 'audit entries are append-only: % refused on {TABLE}', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql
"""

POSTGRES_INSTALL = [
    _POSTGRES_FUNCTION,
    f"CREATE TRIGGER audit_append_only BEFORE UPDATE OR DELETE ON {TABLE} "
    "FOR EACH ROW EXECUTE FUNCTION backoffice_audit_append_only()",
    f"CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON {TABLE} "
    "FOR EACH STATEMENT EXECUTE FUNCTION backoffice_audit_append_only()",
]
POSTGRES_REMOVE = [
    f"DROP TRIGGER IF EXISTS audit_no_truncate ON {TABLE}",
    f"DROP TRIGGER IF EXISTS audit_append_only ON {TABLE}",
    "DROP FUNCTION IF EXISTS backoffice_audit_append_only()",
]

# SQLite has no NEW.* as a whole: every column but actor_id is named. A migration that adds a
# column to AuditEntry recreates this trigger with it.
_SQLITE_KEPT = ("id", "at", "actor_name", "address", "app", "action", "object_type",
                "object_id", "summary", "outcome", "prev_hash", "hash")
SQLITE_INSTALL = [
    f"CREATE TRIGGER audit_no_update BEFORE UPDATE ON {TABLE} "
    f"WHEN NOT (NEW.actor_id IS NULL AND "
    + " AND ".join(f"NEW.{column} IS OLD.{column}" for column in _SQLITE_KEPT)
    + ") BEGIN SELECT RAISE(ABORT, 'audit entries are append-only: UPDATE refused'); END",
    f"CREATE TRIGGER audit_no_delete BEFORE DELETE ON {TABLE} "
    "BEGIN SELECT RAISE(ABORT, 'audit entries are append-only: DELETE refused'); END",
]
SQLITE_REMOVE = [
    "DROP TRIGGER IF EXISTS audit_no_delete",
    "DROP TRIGGER IF EXISTS audit_no_update",
]


def install_statements(vendor: str) -> list[str]:
    return {"postgresql": POSTGRES_INSTALL, "sqlite": SQLITE_INSTALL}.get(vendor, [])


def remove_statements(vendor: str) -> list[str]:
    return {"postgresql": POSTGRES_REMOVE, "sqlite": SQLITE_REMOVE}.get(vendor, [])


@contextmanager
def guard_lifted(connection: BaseDatabaseWrapper = default_connection) -> Iterator[None]:
    """Inside one transaction: the guard is off for the block and back before it commits
    (DDL is transactional on PostgreSQL and SQLite). For the test suite's database resets and
    for tests that tamper on purpose; it needs the table owner's rights, as the operator's
    archive procedure does (docs/access.md)."""
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # ALTER TABLE refuses while deferred foreign-key checks of rows written in this
            # transaction are pending: run them now.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"ALTER TABLE {TABLE} DISABLE TRIGGER USER")
        else:
            for statement in remove_statements(connection.vendor):
                cursor.execute(statement)
        yield
        if connection.vendor == "postgresql":
            cursor.execute(f"ALTER TABLE {TABLE} ENABLE TRIGGER USER")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        else:
            for statement in install_statements(connection.vendor):
                cursor.execute(statement)
