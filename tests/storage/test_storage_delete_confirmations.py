"""Deletes in the file browser are confirmed on one server page that names what goes and how
many: a button's plain POST only asks; ticked entries are deleted together after one
confirmation; bad selections are refused naming the entry."""

from __future__ import annotations

import io
import re
from html import unescape

import pytest
from django.urls import reverse

from backoffice.models import AuditEntry
from storage.client import NotFound

pytestmark = pytest.mark.django_db

DELETE = reverse("storage:delete")
SELECTED = reverse("storage:delete_selected")


def messages_of(response) -> list[str]:
    return [str(message) for message in response.wsgi_request._messages]


def hidden_fields(html: str) -> list[tuple[str, str]]:
    return [(name, unescape(value)) for name, value in
            re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', html)
            if name != "csrfmiddlewaretoken"]


@pytest.fixture
def folder(provider, sandbox_storage):
    for name in ("a.txt", "b.txt", "c.txt"):
        sandbox_storage.upload(f"/docs/{name}", io.BytesIO(b"x" * 10))
    sandbox_storage.create_folder("/docs/empty")
    sandbox_storage.create_folder("/docs/full")
    sandbox_storage.upload("/docs/full/inside.txt", io.BytesIO(b"x"))
    return sandbox_storage


def test_a_delete_button_only_asks_and_deletes_nothing(manager_client, folder):
    response = manager_client.post(DELETE, {"target": "file:/docs/a.txt"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Delete the file /docs/a.txt of demo-bucket?" in html
    assert "This cannot be undone." in html
    assert ("confirmed", "1") in hidden_fields(html)
    assert folder.head("/docs/a.txt").size == 10
    assert not AuditEntry.objects.filter(action="file.delete").exists()


def test_the_confirmation_page_posts_what_deletes_the_file(manager_client, folder):
    asked = manager_client.post(DELETE, {"target": "file-async:/docs/a.txt"},
                                HTTP_REFERER="http://testserver/storage/file/?path=/docs/a.txt")
    html = asked.content.decode()
    assert "The provider removes it shortly after answering." in html
    assert 'href="http://testserver/storage/file/?path=/docs/a.txt" id="confirm-back"' in html
    answer = manager_client.post(DELETE, dict(hidden_fields(html)))
    assert "/docs/a.txt will be deleted in the background." in messages_of(answer)
    assert AuditEntry.objects.filter(action="file.delete",
                                     object_id="/demo-bucket/docs/a.txt").exists()


def test_an_empty_folder_delete_says_it_is_empty(manager_client, folder):
    html = manager_client.post(DELETE, {"target": "folder:/docs/empty"}).content.decode()
    assert "Delete the folder /docs/empty of demo-bucket?" in html
    assert "The folder is empty." in html


def test_ticked_entries_are_deleted_together_after_one_confirmation(manager_client, folder):
    ticked = ["file:/docs/a.txt", "file:/docs/c.txt", "folder:/docs/empty"]
    asked = manager_client.post(SELECTED, {"folder": "/docs", "selected": ticked})
    html = asked.content.decode()
    assert "Delete the 3 selected entries of /docs in demo-bucket?" in html
    assert re.findall(r"<li>([^<]+)</li>", html) == ["/docs/a.txt", "/docs/c.txt",
                                                     "/docs/empty/"]
    assert ">Delete 3 entries</button>" in html
    assert folder.head("/docs/a.txt").size == 10  # nothing deleted by asking
    fields = hidden_fields(html)
    data: dict[str, list[str]] = {}
    for name, value in fields:
        data.setdefault(name, []).append(value)
    answer = manager_client.post(SELECTED, data)
    assert answer.status_code == 302 and answer.url == "/storage/?service=demo-bucket&path=%2Fdocs"
    assert "3 entries deleted." in messages_of(answer)
    for path in ("/docs/a.txt", "/docs/c.txt", "/docs/empty"):
        with pytest.raises(NotFound):
            folder.head(path)
    assert folder.head("/docs/b.txt").size == 10
    assert AuditEntry.objects.filter(action="file.delete").count() == 2
    assert AuditEntry.objects.filter(action="folder.remove").count() == 1


def test_a_refused_entry_is_named_and_the_others_are_deleted(manager_client, folder):
    answer = manager_client.post(SELECTED, {
        "folder": "/docs", "selected": ["folder:/docs/full", "file:/docs/b.txt"],
        "confirmed": "1"})
    shown = messages_of(answer)
    assert "1 entry deleted." in shown
    assert any("/docs/full is not empty" in message for message in shown)
    assert folder.head("/docs/full").type == "folder"
    with pytest.raises(NotFound):
        folder.head("/docs/b.txt")


@pytest.mark.parametrize(("selected", "expected"), [
    ([], "Tick at least one file or folder to delete."),
    (["disk:/docs/a.txt"], "disk:/docs/a.txt: not a file or folder of this page."),
    (["file:/other/a.txt"], "/other/a.txt is not in /docs."),
    (["file:/docs/../a.txt"], "file:/docs/../a.txt: The path must not contain “.” or “..”"),
])
def test_a_bad_selection_is_refused_naming_the_entry(manager_client, folder, selected,
                                                     expected):
    response = manager_client.post(SELECTED, {"folder": "/docs", "selected": selected,
                                              "confirmed": "1"})
    assert response.status_code == 302
    assert any(message.startswith(expected) for message in messages_of(response))
    assert folder.head("/docs/a.txt").size == 10


def test_the_listing_offers_ticks_to_those_who_may_delete(manager_client, folder):
    html = manager_client.get(reverse("storage:index"), {"path": "/docs"}).content.decode()
    assert 'value="file:/docs/a.txt" data-select' in html and 'id="delete-selected"' in html
    assert 'value="folder:/docs/empty" data-select' in html


def test_a_reader_gets_no_ticks_and_cannot_delete_a_selection(auditor_client, folder):
    read_only = auditor_client.get(reverse("storage:index"), {"path": "/docs"}).content.decode()
    assert "data-select" not in read_only and 'id="select-form"' not in read_only
    assert auditor_client.post(SELECTED, {"folder": "/docs", "selected": ["file:/docs/a.txt"],
                                          "confirmed": "1"}).status_code == 403
    assert folder.head("/docs/a.txt").size == 10
