"""The audit log at the database: only inserts pass the triggers (UPDATE, DELETE and, on
PostgreSQL, TRUNCATE are refused, whatever the path), and each entry is chained by its hash
to the one before, so that `verify_audit_chain` names the first entry changed behind the
triggers' back."""

from __future__ import annotations

import threading

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, IntegrityError, connection, connections, transaction

from backoffice.models import AuditEntry
from backoffice.security import audit
from backoffice.security.audit_chain import TABLE, entry_hash, guard_lifted

pytestmark = pytest.mark.django_db


def entries(count: int) -> list[AuditEntry]:
    return [audit.record("sms", "template.create", summary=f"entry {n}") for n in range(count)]


def test_raw_sql_cannot_change_an_entry():
    saved = entries(1)[0]
    with pytest.raises((DatabaseError, IntegrityError)), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute(f"UPDATE {TABLE} SET summary = 'rewritten' WHERE id = %s", [saved.pk])
    assert AuditEntry.objects.get(pk=saved.pk).summary == "entry 0"


def test_the_base_manager_and_raw_sql_cannot_delete_an_entry():
    saved = entries(1)[0]
    with pytest.raises((DatabaseError, IntegrityError)), transaction.atomic():
        AuditEntry._base_manager.filter(pk=saved.pk)._raw_delete(connection.alias)
    with pytest.raises((DatabaseError, IntegrityError)), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {TABLE}")
    assert AuditEntry.objects.filter(pk=saved.pk).exists()


def test_deleting_a_person_keeps_their_entries_under_their_name(django_user_model):
    ann = django_user_model.objects.create_user("ann")
    saved = audit.record("sms", "template.create", user=ann, summary="by ann")
    ann.delete()
    kept = AuditEntry.objects.get(pk=saved.pk)
    assert (kept.actor_id, kept.actor_name, kept.summary) == (None, "ann", "by ann")
    call_command("verify_audit_chain")


@pytest.mark.services
def test_postgresql_refuses_truncate(postgres):
    entries(1)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # TRUNCATE waits for no FK check
        cursor.execute(f"TRUNCATE {TABLE}")
    assert AuditEntry.objects.count() >= 1


def test_each_entry_hashes_its_content_and_the_one_before():
    first, second = entries(2)
    assert second.prev_hash == first.hash
    assert first.hash == entry_hash(first)
    assert AuditEntry.objects.get(pk=second.pk).hash == entry_hash(second)


def test_an_intact_chain_verifies(capsys):
    entries(3)
    call_command("verify_audit_chain")
    assert "The audit chain holds" in capsys.readouterr().out


def test_an_entry_changed_behind_the_triggers_is_named():
    first, second, third = entries(3)
    with guard_lifted(), connection.cursor() as cursor:
        cursor.execute(f"UPDATE {TABLE} SET summary = 'rewritten' WHERE id = %s", [second.pk])
    with pytest.raises(CommandError, match=rf"entry #{second.pk} .*content differs") as raised:
        call_command("verify_audit_chain")
    assert raised.value.returncode == 1


def test_a_removed_entry_is_named_by_the_one_after_it():
    first, second, third = entries(3)
    with guard_lifted(), connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {TABLE} WHERE id = %s", [second.pk])
    with pytest.raises(CommandError, match=rf"entry #{third.pk} .*link to the entry before it "
                                           rf"\(#{first.pk}\)"):
        call_command("verify_audit_chain")


def test_an_entry_inserted_by_sql_without_the_chain_is_named():
    first = entries(1)[0]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {TABLE} (at, actor_name, app, action, object_type, object_id, "
            "summary, outcome, prev_hash, hash) VALUES (%s, 'eve', 'auth', 'login', '', '', "
            "'', 'ok', %s, 'forged')", [first.at, first.hash])
    forged = AuditEntry.objects.get(actor_name="eve")
    with pytest.raises(CommandError, match=rf"entry #{forged.pk} "):
        call_command("verify_audit_chain")


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_appends_still_form_one_chain(postgres):
    def write(n: int) -> None:
        try:
            for i in range(10):
                audit.record("sms", "template.create", summary=f"thread {n} entry {i}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert AuditEntry.objects.filter(summary__startswith="thread").count() == 40
    call_command("verify_audit_chain")


def archive_statements(last_archived_pk: int) -> list[str]:
    """The archive procedure of docs/access.md, between BEGIN and COMMIT, as written there."""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "access.md").read_text()
    block = text[text.index("BEGIN;\n") + len("BEGIN;\n"):text.index("COMMIT;")]
    statements = [line.rstrip(";") for line in block.splitlines() if line.strip()]
    return [s.replace("at < '2025-01-01'", f"id <= {last_archived_pk}") for s in statements]


@pytest.mark.services
def test_the_documented_archive_procedure_leaves_a_chain_that_verifies(postgres):
    archived = entries(2)
    kept = entries(2)
    with transaction.atomic(), connection.cursor() as cursor:
        for statement in archive_statements(archived[-1].pk):
            cursor.execute(statement)
    assert list(AuditEntry.objects.filter(pk__lte=archived[-1].pk)) == []
    assert AuditEntry.objects.filter(pk__in=[e.pk for e in kept]).count() == 2
    call_command("verify_audit_chain")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {TABLE}")
