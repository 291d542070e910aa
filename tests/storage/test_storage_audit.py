"""Storage use cases write the audit log: file deletes, secret and metadata changes, with the
person and address of the request; the secret itself is never written."""

from __future__ import annotations

import io
from urllib.parse import urlencode

import pytest
from django.urls import reverse

from backoffice.models import AuditEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def doc(provider, sandbox_storage):
    sandbox_storage.upload("/docs/report.txt", io.BytesIO(b"quarterly numbers"))
    return sandbox_storage


def storage_entries() -> list[tuple[str, str, str]]:
    return list(AuditEntry.objects.filter(app="storage").order_by("pk")
                .values_list("action", "summary", "outcome"))


def test_secret_metadata_and_delete_are_recorded_with_the_person(manager_client, manager, doc):
    manager_client.post(reverse("storage:edit_secret"),
                        {"path": "/docs/report.txt", "action": "set", "secret": "abc123"})
    manager_client.post(reverse("storage:edit_metadata"), {
        "path": "/docs/report.txt", "option": "merge", "entries": "author=alice"})
    manager_client.post(reverse("storage:delete"), {"path": "/docs/report.txt",
                                                     "kind": "file", "confirmed": "1"})
    actions = [action for action, _summary, _outcome in storage_entries()]
    assert actions[0] == "file.secret" and actions[-1] == "file.delete"
    assert "file.metadata" in actions
    deleted = AuditEntry.objects.get(action="file.delete")
    assert (deleted.actor, deleted.object_id, deleted.address, deleted.outcome) == (
        manager, "/demo-bucket/docs/report.txt", "127.0.0.1", "ok")
    assert not AuditEntry.objects.filter(summary__contains="abc123").exists()


def test_a_delete_the_provider_refuses_is_recorded_as_failed(manager_client, provider):
    manager_client.post(reverse("storage:delete"), {"path": "/docs/missing.txt",
                                                     "kind": "file", "confirmed": "1"})
    assert storage_entries()[-1][0] == "file.delete"
    assert storage_entries()[-1][2] == "failed"


def test_reading_a_file_writes_nothing(manager_client, doc):
    manager_client.get(f"{reverse('storage:file')}?{urlencode({'path': '/docs/report.txt'})}")
    assert storage_entries() == []
