"""The file browser page: folders, breadcrumbs, pages through x-list-iter, order, folder
creation and deletes, read live from the sandbox."""

from __future__ import annotations

import io
import re
from html import unescape

import pytest
import requests
from django.urls import reverse

from storage.client import NotFound
from storage.models import StoredFile

pytestmark = pytest.mark.django_db

INDEX = reverse("storage:index")


def names_in(html: str) -> list[str]:
    return [unescape(name) for name in re.findall(r'<tr data-name="([^"]*)"', html)]


def next_link(html: str) -> str | None:
    match = re.search(r'<a href="([^"]+)" rel="next"', html)
    return unescape(match.group(1)) if match else None


def messages_of(response) -> list[str]:
    return [str(message) for message in response.wsgi_request._messages]


@pytest.fixture
def bucket(provider, sandbox_storage):
    for name in ("b.txt", "a.txt", "c.png"):
        sandbox_storage.upload(f"/photos/2024/{name}", io.BytesIO(b"x" * 10))
    sandbox_storage.create_folder("/photos/2024/sub")
    return sandbox_storage


def test_a_folder_lists_its_folders_and_files_with_breadcrumbs(manager_client, bucket):
    response = manager_client.get(INDEX, {"path": "/photos/2024"})
    html = response.content.decode()
    assert response.status_code == 200
    assert names_in(html) == ["a.txt", "b.txt", "c.png", "sub"]
    crumbs = re.findall(r'data-crumb="([^"]+)"', html)
    assert crumbs == ["/", "/photos", "/photos/2024"]
    assert 'data-kind="folder"' in html and "Up one folder" in html


def test_the_order_can_be_reversed(manager_client, bucket):
    html = manager_client.get(INDEX, {"path": "/photos/2024", "order": "desc"}).content.decode()
    assert names_in(html) == ["sub", "c.png", "b.txt", "a.txt"]


@pytest.fixture
def huge_folder(provider):
    """/huge with 25,000 files; afterwards the sandbox is reset here, with the patience that
    clearing 25,000 files needs (the shared fixture's reset allows 30 s)."""
    seeded = requests.post(f"{provider.control_url}/storage/seed",
                           json={"path": "/huge", "count": 25_000, "size": 8}, timeout=300)
    assert seeded.status_code == 201, seeded.text
    yield "/huge"
    requests.post(f"{provider.control_url}/reset", timeout=300).raise_for_status()


def test_a_folder_of_25000_files_is_browsed_page_by_page(manager_client, huge_folder):
    url: str | None = f"{INDEX}?path=/huge&limit=1000"
    seen: list[str] = []
    pages = 0
    while url:
        html = manager_client.get(url).content.decode()
        pages += 1
        assert f"Page {pages}" in html
        seen += names_in(html)
        url = next_link(html)
    assert pages == 25
    assert len(seen) == len(set(seen)) == 25_000
    assert seen == sorted(seen)
    assert 'id="last-page"' in html


def test_the_page_size_is_limited_to_the_offered_sizes(manager_client, bucket):
    html = manager_client.get(INDEX, {"path": "/photos/2024", "limit": "2"}).content.decode()
    assert len(names_in(html)) == 4  # 2 is not offered: the default of 100 is used
    html = manager_client.get(INDEX, {"path": "/photos/2024", "limit": "50"}).content.decode()
    assert '<option value="50" selected>' in html


def test_a_missing_folder_is_explained(manager_client, provider):
    html = manager_client.get(INDEX, {"path": "/nowhere"}).content.decode()
    assert "There is no file or folder at /nowhere." in html


def test_a_malformed_path_is_explained_and_the_bucket_shown(manager_client, provider):
    response = manager_client.get(INDEX, {"path": "/a//b"})
    assert response.status_code == 200
    assert any("empty name" in message for message in messages_of(response))


def test_a_file_path_opens_the_file_page(manager_client, bucket):
    response = manager_client.get(INDEX, {"path": "/photos/2024/a.txt"})
    assert response.status_code == 302
    assert response.url.startswith(reverse("storage:file"))


def test_the_listing_fragment_is_served_for_the_page_script(manager_client, bucket):
    html = manager_client.get(INDEX, {"path": "/photos/2024", "partial": "listing"}
                              ).content.decode()
    assert "<html" not in html and names_in(html)


def test_an_unconfigured_provider_is_explained(manager_client, settings):
    settings.PROVIDER = {**settings.PROVIDER, "storage": {**settings.PROVIDER["storage"],
                                                          "url": ""}}
    html = manager_client.get(INDEX).content.decode()
    assert "Object storage is not configured" in html and "set STORAGE_BUCKET" in html


def test_a_provider_failure_is_explained(manager_client, provider):
    provider.add_fault(service="storage", path=".*", method="GET", action="status", status=503,
                       body={"code": 50300001, "msg": "service unavailable", "id": "q"})
    html = manager_client.get(INDEX).content.decode()
    assert "The storage provider failed (service unavailable)" in html


def test_a_folder_is_created_where_the_user_is(manager_client, bucket):
    response = manager_client.post(reverse("storage:create_folder"),
                                   {"parent": "/photos", "name": "2025"})
    assert response.status_code == 302
    assert "Folder /photos/2025 created." in messages_of(response)
    assert bucket.head("/photos/2025").type == "folder"
    assert StoredFile.objects.get(path="/photos/2025").is_folder


def test_an_existing_folder_and_a_bad_name_are_refused_clearly(manager_client, bucket):
    again = manager_client.post(reverse("storage:create_folder"),
                                {"parent": "/photos", "name": "2024"})
    assert "A folder /photos/2024 already exists." in messages_of(again)
    assert "value=\"2024\"" in manager_client.get(again.url).content.decode()
    slash = manager_client.post(reverse("storage:create_folder"),
                                {"parent": "/photos", "name": "a/b"})
    assert messages_of(slash) == []
    assert folder_field(manager_client.get(slash.url)) == ("a/b", ["A name must not contain “/”."])
    with pytest.raises(NotFound):
        bucket.head("/photos/a")


def folder_field(page) -> tuple[str, list[str]]:
    """The New folder field's value and the problems shown at it."""
    form = page.context["folder_form"]
    return form["name"].value(), form.errors.get("name", [])


def test_a_folder_name_with_a_text_direction_character_is_refused_naming_the_field(
        manager_client, provider):
    response = manager_client.post(reverse("storage:create_folder"),
                                   {"parent": "/photos", "name": "名前\u202egnp.exe"})
    assert response.status_code == 302
    assert folder_field(manager_client.get(response.url)) == ("名前\u202egnp.exe", [
        "The folder name must not contain control or text-direction characters (U+202E): "
        "they make a name show differently from what it is."])
    assert not StoredFile.objects.exists()


@pytest.mark.parametrize("asynchronous", [False, True], ids=["now", "background"])
def test_a_file_is_deleted(manager_client, bucket, asynchronous):
    # The listing's buttons send one "<kind>:<path>" target.
    target = ("file-async:" if asynchronous else "file:") + "/photos/2024/a.txt"
    response = manager_client.post(reverse("storage:delete"), {"target": target,
                                                               "confirmed": "1"})
    assert response.status_code == 302
    assert response.url == f"{INDEX}?service=demo-bucket&path=%2Fphotos%2F2024"
    expected = ("/photos/2024/a.txt will be deleted in the background." if asynchronous
                else "/photos/2024/a.txt deleted.")
    assert expected in messages_of(response)
    if not asynchronous:
        with pytest.raises(NotFound):
            bucket.head("/photos/2024/a.txt")


def test_only_an_empty_folder_is_deleted(manager_client, bucket):
    full = manager_client.post(reverse("storage:delete"), {"target": "folder:/photos/2024",
                                                           "confirmed": "1"})
    assert ("The folder /photos/2024 is not empty: delete the files and folders in it first."
            in messages_of(full))
    assert bucket.head("/photos/2024").type == "folder"
    empty = manager_client.post(reverse("storage:delete"),
                                {"path": "/photos/2024/sub", "kind": "folder",
                                 "confirmed": "1"})
    assert "Folder /photos/2024/sub deleted." in messages_of(empty)
    with pytest.raises(NotFound):
        bucket.head("/photos/2024/sub")


def test_a_delete_without_a_target_is_refused_clearly(manager_client, bucket):
    response = manager_client.post(reverse("storage:delete"), {"target": "disk:/photos"})
    assert "Choose a file or folder to delete." in messages_of(response)
    dots = manager_client.post(reverse("storage:delete"), {"target": "file:/photos/../x"})
    assert "The path must not contain “.” or “..” as a name." in messages_of(dots)


def test_an_auditor_reads_the_folder_but_cannot_change_it(auditor_client, bucket, media_root):
    html = auditor_client.get(INDEX, {"path": "/photos/2024"}).content.decode()
    assert names_in(html) == ["a.txt", "b.txt", "c.png", "sub"]
    assert 'id="upload-card"' not in html and 'data-action="delete"' not in html
    assert 'id="folder-form"' not in html
    assert auditor_client.post(reverse("storage:create_folder"),
                               {"parent": "/", "name": "x"}).status_code == 403
    assert auditor_client.post(reverse("storage:delete"),
                               {"path": "/photos/2024/a.txt", "kind": "file"}).status_code == 403
    assert auditor_client.post(reverse("storage:mirror_now"), {"path": "/"}).status_code == 403
    assert bucket.head("/photos/2024/a.txt").size == 10
    with pytest.raises(NotFound):
        bucket.head("/x")


def test_a_user_without_storage_access_is_refused(client, make_user, provider):
    client.force_login(make_user("sms-only", "SMS operators"))
    assert client.get(INDEX).status_code == 403


def test_refresh_mirror_queues_a_walk_of_the_current_folder(manager_client, provider,
                                                           django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = manager_client.post(reverse("storage:mirror_now"), {"path": "/photos"})
    assert response.status_code == 302 and len(queued) == 1
    assert "The mirror of /photos is being refreshed." in messages_of(response)
