"""Copy, move and rename of single files through the file browser's form, against the real
sandbox: what arrives where, the mirror, the audit log, the purge of a moved file's URLs, the
question before a file is replaced, and every bad target refused at the field with what was
typed kept and nothing changed."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from backoffice.models import AuditEntry
from delivery.models import PurgeRequest, PurgeSource
from storage.client import NotFound
from storage.models import StoredFile

URL = "/storage/transfer/"


@pytest.fixture
def files(provider, sandbox_storage):
    sandbox_storage.upload("/docs/a.txt", io.BytesIO(b"alpha"), metadata={"owner": "ann"})
    sandbox_storage.upload("/docs/b.txt", io.BytesIO(b"bravo"))
    sandbox_storage.upload("/docs/sub/c.txt", io.BytesIO(b"charlie"))
    sandbox_storage.upload("/loose.txt", io.BytesIO(b"x"))
    return sandbox_storage


def post(client, action: str, path: str, target: str, **extra: str):
    return client.post(URL, {"service": "demo-bucket", "path": path, "action": action,
                             "target": target, "target_service": "demo-bucket", **extra})


def body_of(client, path: str) -> bytes:
    out = io.BytesIO()
    client.download(path, out)
    return out.getvalue()


@pytest.mark.django_db
def test_a_file_is_copied_with_its_metadata_and_the_source_stays(manager_client, files):
    answer = post(manager_client, "copy", "/docs/a.txt", "/archive/a-copy.txt")

    assert answer.status_code == 302
    assert answer["Location"].startswith(reverse("storage:file"))
    assert body_of(files, "/archive/a-copy.txt") == body_of(files, "/docs/a.txt") == b"alpha"
    copied = StoredFile.objects.get(path="/archive/a-copy.txt")
    assert (copied.size, copied.metadata.get("owner")) == (5, "ann")
    assert StoredFile.objects.get(path="/archive").is_folder
    entry = AuditEntry.objects.get(action="file.copy")
    assert (entry.object_id, entry.summary) == ("/demo-bucket/docs/a.txt",
                                                "to /archive/a-copy.txt")


@pytest.mark.django_db
def test_a_moved_file_leaves_nothing_behind_and_its_urls_are_purged(
        manager_client, files, django_capture_on_commit_callbacks):
    StoredFile.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        answer = post(manager_client, "move", "/docs/a.txt", "/moved/a.txt")

    assert answer.status_code == 302
    assert body_of(files, "/moved/a.txt") == b"alpha"
    with pytest.raises(NotFound):
        files.head("/docs/a.txt")
    assert StoredFile.objects.get(path="/moved/a.txt").deleted_at is None
    purge = PurgeRequest.objects.get()
    assert (purge.source, purge.path) == (PurgeSource.FILE_DELETED, "/docs/a.txt")
    assert purge.url_list()[0].endswith("/docs/a.txt")
    assert AuditEntry.objects.filter(action="file.move", outcome="ok").count() == 1


@pytest.mark.django_db
def test_a_rename_is_a_move_within_the_folder(manager_client, files):
    answer = post(manager_client, "rename", "/docs/b.txt", "renamed.txt")

    assert answer.status_code == 302
    assert body_of(files, "/docs/renamed.txt") == b"bravo"
    assert not files.exists("/docs/b.txt")
    assert StoredFile.objects.get(path="/docs/renamed.txt").size == 5
    assert StoredFile.objects.filter(path="/docs/b.txt", deleted_at__isnull=True).count() == 0
    assert AuditEntry.objects.get(action="file.rename").summary == "to /docs/renamed.txt"


@pytest.mark.django_db
def test_replacing_a_file_is_asked_first_and_then_done(
        manager_client, files, django_capture_on_commit_callbacks):
    html = post(manager_client, "copy", "/docs/a.txt", "/docs/b.txt").content.decode()

    assert "Copy /docs/a.txt onto the file /docs/b.txt, replacing it?" in html
    assert body_of(files, "/docs/b.txt") == b"bravo"  # asking changed nothing
    with django_capture_on_commit_callbacks(execute=True):
        answer = post(manager_client, "copy", "/docs/a.txt", "/docs/b.txt", confirmed="1",
                      replace="1")
    assert answer.status_code == 302
    assert body_of(files, "/docs/b.txt") == b"alpha"
    assert PurgeRequest.objects.get().source == PurgeSource.FILE_REPLACED


@pytest.mark.django_db
def test_a_confirmation_without_the_replace_answer_asks_again(manager_client, files):
    html = post(manager_client, "move", "/docs/a.txt", "/docs/b.txt",
                confirmed="1").content.decode()
    assert "replacing it?" in html
    assert body_of(files, "/docs/b.txt") == b"bravo"


BAD_TARGETS = [
    ("copy", "/docs/a.txt", "/docs/a.txt",
     "/docs/a.txt is where it already is: choose another path or name."),
    ("move", "/docs", "/docs/sub/deeper",
     "A folder cannot go into itself or into one of its own subfolders: /docs/sub/deeper is "
     "inside /docs."),
    ("move", "/docs", "/docs",
     "/docs is where it already is: choose another path or name."),
    ("copy", "/docs/a.txt", "/backoffice-private/a.txt",
     "/backoffice-private/a.txt holds the back-office&#x27;s own kept files"),
    ("move", "/docs/a.txt", "/docs/sub",
     "/docs/sub is a folder: give the file&#x27;s own new path, e.g. /docs/sub/a.txt."),
    ("copy", "/docs/sub", "/loose.txt",
     "/loose.txt is a file: a folder cannot take its place. Choose another path."),
    ("copy", "/docs/a.txt", "/loose.txt/a.txt",
     "/loose.txt is a file, so nothing can be put inside it."),
    ("move", "/docs/a.txt", "/docs//a.txt",
     "The path must not contain an empty name (“//”)."),
    ("rename", "/docs/a.txt", "sub/x.txt", "A name must not contain “/”."),
    ("move", "/docs/a.txt", "", "This field is required."),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("action", "source", "typed", "message"), BAD_TARGETS)
def test_a_bad_target_is_refused_at_the_field_keeping_what_was_typed(
        manager_client, files, action, source, typed, message):
    answer = post(manager_client, action, source, typed)

    assert answer.status_code == 400
    html = answer.content.decode()
    assert message in html
    field = html.split('data-field="target"')[1].split("</div>")[0]
    assert message in field  # at the field, not somewhere on the page
    assert (f'value="{typed}"' in field) if typed else ("value=" not in field.split("<input")[1])
    assert body_of(files, "/docs/a.txt") == b"alpha" and files.exists("/docs/sub/c.txt")
    assert not AuditEntry.objects.filter(app="storage").exists()


@pytest.mark.django_db
def test_another_service_is_refused_at_the_field(manager_client, files):
    answer = post(manager_client, "copy", "/docs/a.txt", "/docs/z.txt",
                  target_service="demo-videos")
    assert answer.status_code == 400
    assert "Files can be copied or moved only within the service demo-bucket" in (
        answer.content.decode())
    assert not files.exists("/docs/z.txt")


@pytest.mark.django_db
def test_a_source_gone_meanwhile_is_said_above_the_form(manager_client, files):
    answer = post(manager_client, "move", "/docs/gone.txt", "/docs/z.txt")
    assert answer.status_code == 400
    assert "There is no file or folder at /docs/gone.txt any more." in answer.content.decode()


@pytest.mark.django_db
def test_the_form_offers_the_current_path_or_name(manager_client, files):
    html = manager_client.get(URL, {"service": "demo-bucket", "path": "/docs/a.txt",
                                    "action": "rename"}).content.decode()
    assert "Rename /docs/a.txt" in html and 'value="a.txt"' in html
    html = manager_client.get(URL, {"service": "demo-bucket", "path": "/docs/a.txt",
                                    "action": "copy"}).content.decode()
    assert "Copy to (the new path)" in html and 'value="/docs/a.txt"' in html


@pytest.mark.django_db
def test_only_people_who_may_delete_may_copy_or_move(auditor_client, files):
    assert auditor_client.get(URL, {"path": "/docs/a.txt"}).status_code == 403
    assert post(auditor_client, "move", "/docs/a.txt", "/x.txt").status_code == 403
    assert files.exists("/docs/a.txt") and not files.exists("/x.txt")


@pytest.mark.django_db
def test_the_browser_offers_copy_move_and_rename_in_the_row_menu(manager_client, files):
    html = manager_client.get(reverse("storage:index"), {"path": "/docs"}).content.decode()
    for action in ("copy", "move", "rename"):
        assert f"path=/docs/sub&amp;action={action}" in html
        assert f"path=/docs/a.txt&amp;action={action}" in html
    page = manager_client.get(reverse("storage:file"), {"path": "/docs/a.txt"}).content.decode()
    assert 'id="file-transfer-links"' in page
