"""The hooks other apps use: file actions in the browser rows and on the file page, and the
signals sent when files are deleted or their metadata changes."""

from __future__ import annotations

import html as html_text
import io
import re

import pytest
from django.urls import reverse

from storage import services

pytestmark = pytest.mark.django_db


def confirmed_delete(client, target: str):
    """A delete as the confirmation page sends it."""
    return client.post(reverse("storage:delete"), {"target": target, "confirmed": "1"})


@pytest.fixture
def video_action():
    """A media-like action on videos and playlists, pointing at an existing URL."""
    action = services.register_file_action(
        "Snapshot", "storage:uploads",
        lambda path, content_type: path.endswith((".mp4", ".m3u8")),
    )
    yield action
    services.unregister_file_action("storage:uploads")


@pytest.fixture
def files(provider, sandbox_storage):
    sandbox_storage.upload("/v/clip.mp4", io.BytesIO(b"\x00\x00\x00\x18ftypmp42"))
    sandbox_storage.upload("/v/notes.txt", io.BytesIO(b"notes"))
    return sandbox_storage


def extra_actions(html: str, name: str) -> list[str]:
    """This test's action links in the row of `name` (other apps may register their own)."""
    row = re.findall(rf'<tr data-name="{re.escape(name)}".*?</tr>', html, re.S)[0]
    links = [html_text.unescape(link)
             for link in re.findall(r'<a href="([^"]+)" data-action="extra">', row)]
    return [link for link in links if link.startswith(reverse("storage:uploads"))]


def test_a_registered_action_appears_only_on_the_files_it_applies_to(manager_client, files,
                                                                     video_action):
    html = manager_client.get(reverse("storage:index"), {"path": "/v"}).content.decode()
    assert extra_actions(html, "clip.mp4") == [
        f"{reverse('storage:uploads')}?service=demo-bucket&path=%2Fv%2Fclip.mp4"]
    assert extra_actions(html, "notes.txt") == []
    page = manager_client.get(reverse("storage:file"), {"path": "/v/clip.mp4"}).content.decode()
    assert "Snapshot" in page


def test_registering_the_same_url_again_replaces_the_action(video_action):
    services.register_file_action("Other", "storage:uploads", lambda p, c: True)
    labels = [a.label for a in services.registered_file_actions()
              if a.url_name == "storage:uploads"]
    assert labels == ["Other"]


def test_an_action_needing_a_permission_is_hidden_from_those_without_it(auditor_client, files):
    services.register_file_action("Clip", "storage:uploads", lambda p, c: True,
                                  permission="storage.manage_files")
    try:
        html = auditor_client.get(reverse("storage:index"), {"path": "/v"}).content.decode()
        assert extra_actions(html, "clip.mp4") == []
    finally:
        services.unregister_file_action("storage:uploads")


def test_a_broken_hook_does_not_break_the_browser(manager_client, files):
    def broken(path, content_type):
        raise RuntimeError("bug in another app")

    services.register_file_action("Broken", "storage:uploads", broken)
    services.register_file_action("Unknown URL", "media:no_such_view", lambda p, c: True)
    try:
        response = manager_client.get(reverse("storage:index"), {"path": "/v"})
        assert response.status_code == 200
        assert extra_actions(response.content.decode(), "clip.mp4") == []
    finally:
        services.unregister_file_action("storage:uploads")
        services.unregister_file_action("media:no_such_view")


def test_deleting_and_editing_files_send_signals_with_the_path(manager_client, files):
    received: list[tuple[str, str, dict]] = []

    def on_deleted(sender, path, **fields):
        received.append(("deleted", path, {"asynchronous": fields["asynchronous"]}))

    def on_metadata(sender, path, **fields):
        received.append(("metadata", path, {"option": fields["option"]}))

    services.file_deleted.connect(on_deleted)
    services.file_metadata_changed.connect(on_metadata)
    try:
        manager_client.post(reverse("storage:edit_secret"), {"path": "/v/notes.txt",
                                                            "action": "set", "secret": "abc"})
        confirmed_delete(manager_client, "file-async:/v/notes.txt")
        confirmed_delete(manager_client, "file:/v/clip.mp4")
    finally:
        services.file_deleted.disconnect(on_deleted)
        services.file_metadata_changed.disconnect(on_metadata)
    assert received == [
        ("metadata", "/v/notes.txt", {"option": "merge"}),
        ("deleted", "/v/notes.txt", {"asynchronous": True}),
        ("deleted", "/v/clip.mp4", {"asynchronous": False}),
    ]


def test_a_failing_receiver_does_not_undo_or_fail_the_delete(manager_client, files):
    def failing(sender, path, **fields):
        raise RuntimeError("purge failed")

    services.file_deleted.connect(failing)
    try:
        response = confirmed_delete(manager_client, "file:/v/notes.txt")
    finally:
        services.file_deleted.disconnect(failing)
    assert response.status_code == 302
    assert "/v/notes.txt deleted." in [str(m) for m in response.wsgi_request._messages]


def test_no_signal_is_sent_when_the_provider_refuses(manager_client, files):
    received: list[str] = []

    def on_deleted(sender, path, **fields):
        received.append(path)

    services.file_deleted.connect(on_deleted)
    try:
        confirmed_delete(manager_client, "file:/v/missing.txt")
    finally:
        services.file_deleted.disconnect(on_deleted)
    assert received == []
