"""The migrations that bring the hash chain: entries written before it are chained in id
order (nothing lost or changed), and only then do the triggers close the table."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from backoffice.models import AuditEntry

BEFORE = [("backoffice", "0006_address_tally")]
AFTER = [("backoffice", "0009_audit_append_only_triggers")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_entries_written_before_the_chain_are_chained_in_id_order_then_closed():
    old_apps = migrate(BEFORE)
    OldEntry = old_apps.get_model("backoffice", "AuditEntry")
    for n in range(3):
        OldEntry.objects.create(app="sms", action="template.create", summary=f"old {n}",
                                outcome="ok", actor_name="ann")
    OldEntry.objects.filter(summary="old 1").update(
        at=datetime(2024, 1, 2, 3, 4, 5, 678901, tzinfo=UTC))
    migrate(AFTER)

    chained = list(AuditEntry.objects.order_by("pk"))  # with the roles' set-up at migrate
    assert [e.summary for e in chained if e.summary.startswith("old")] == [
        "old 0", "old 1", "old 2"]
    assert chained[0].prev_hash == ""
    assert [e.prev_hash for e in chained[1:]] == [e.hash for e in chained[:-1]]
    assert all(len(e.hash) == 64 for e in chained)
    assert AuditEntry.objects.get(summary="old 1").at == datetime(
        2024, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
    call_command("verify_audit_chain")
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM backoffice_auditentry")
