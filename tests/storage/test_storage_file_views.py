"""One file's page: HEAD facts and metadata, the metadata editor (merge, replace, delete,
TTL), the secret, the streamed download and the image preview."""

from __future__ import annotations

import io
import time
from urllib.parse import urlencode

import pytest
from django.urls import reverse
from PIL import Image

from storage.models import StoredFile
from tests.storage.conftest import md5_of, pseudo_random_bytes

pytestmark = pytest.mark.django_db


def url(name: str, path: str) -> str:
    return f"{reverse(name)}?{urlencode({'path': path})}"


def stored_metadata(client, path: str) -> dict[str, str]:
    return client.download(path, io.BytesIO()).metadata


def png(width: int = 64, height: int = 32) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (0, 160, 80)).save(buffer, "PNG")
    return buffer.getvalue()


@pytest.fixture
def doc(provider, sandbox_storage):
    sandbox_storage.upload("/docs/report.txt", io.BytesIO(b"quarterly numbers"),
                           metadata={"author": "alice"}, ttl_days=30)
    return sandbox_storage


def test_the_file_page_shows_what_the_provider_knows(manager_client, doc):
    html = manager_client.get(url("storage:file", "/docs/report.txt")).content.decode()
    assert md5_of(b"quarterly numbers") in html
    assert '<tr data-meta="author"><th><code>author</code></th><td>alice</td></tr>' in html
    assert "x-svc-meta-" not in html
    assert "30 days" in html
    assert 'id="metadata-form"' in html and 'id="secret-form"' in html
    row = StoredFile.objects.get(path="/docs/report.txt")
    assert row.md5 == md5_of(b"quarterly numbers") and row.metadata == {"author": "alice",
                                                                          "ttl": "30"}


def test_a_chinese_value_is_sent_url_encoded_and_shown_decoded(manager_client, doc):
    response = manager_client.post(reverse("storage:edit_metadata"), {
        "path": "/docs/report.txt", "option": "merge",
        "entries": "author=张三\nnote=50% done"})
    assert response.status_code == 302
    stored = stored_metadata(doc, "/docs/report.txt")
    assert stored["author"] == "%E5%BC%A0%E4%B8%89"
    assert stored["note"] == "50%25 done"  # so that decoding gives back exactly what was typed
    html = manager_client.get(url("storage:file", "/docs/report.txt")).content.decode()
    assert '<tr data-meta="author"><th><code>author</code></th><td>张三</td></tr>' in html
    assert '<td>50% done</td>' in html


def test_a_value_stored_elsewhere_that_does_not_decode_is_shown_as_stored(manager_client, doc):
    doc.patch_metadata("/docs/report.txt", {"odd": "100%", "bytes": "%FF%FE"})
    html = manager_client.get(url("storage:file", "/docs/report.txt")).content.decode()
    assert '<tr data-meta="odd"><th><code>odd</code></th><td>100%</td></tr>' in html
    assert '<tr data-meta="bytes"><th><code>bytes</code></th><td>%FF%FE</td></tr>' in html


def test_a_missing_file_is_a_404_and_a_folder_opens_the_browser(manager_client, doc):
    assert manager_client.get(url("storage:file", "/docs/none.txt")).status_code == 404
    folder = manager_client.get(url("storage:file", "/docs"))
    assert folder.status_code == 302 and folder.url.startswith(reverse("storage:index"))


def test_metadata_is_merged(manager_client, doc):
    response = manager_client.post(reverse("storage:edit_metadata"), {
        "path": "/docs/report.txt", "option": "merge",
        "entries": "author=bob\nproject=x-1", "ttl_days": "60"})
    assert response.status_code == 302
    assert stored_metadata(doc, "/docs/report.txt") == {"author": "bob", "project": "x-1",
                                                         "ttl": "60"}


def test_replace_keeps_the_secret_but_drops_the_other_entries(manager_client, doc):
    doc.patch_metadata("/docs/report.txt", {"secret": "s3cret", "old": "1"})
    manager_client.post(reverse("storage:edit_metadata"), {
        "path": "/docs/report.txt", "option": "replace", "entries": "fresh=yes"})
    assert stored_metadata(doc, "/docs/report.txt") == {"fresh": "yes", "secret": "s3cret"}


def test_named_entries_and_the_lifetime_are_deleted(manager_client, doc):
    doc.patch_metadata("/docs/report.txt", {"keep": "1", "drop": "2"})
    manager_client.post(reverse("storage:edit_metadata"), {
        "path": "/docs/report.txt", "option": "delete", "entries": "drop\nauthor",
        "remove_ttl": "on"})
    assert stored_metadata(doc, "/docs/report.txt") == {"keep": "1"}


def test_the_last_modified_time_is_updated_only_when_asked(manager_client, doc):
    def listed_time() -> int:
        return next(iter(doc.iter_list("/docs"))).last_modified

    first = listed_time()
    time.sleep(1.1)  # listing times are whole seconds
    edit = {"path": "/docs/report.txt", "option": "merge", "entries": "a=1"}
    manager_client.post(reverse("storage:edit_metadata"), edit)
    assert listed_time() == first
    manager_client.post(reverse("storage:edit_metadata"), {**edit, "update_last_modified": "on"})
    assert listed_time() > first


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"option": "merge", "entries": "a=1", "ttl_days": "181"},
         "The lifetime (TTL) must be a whole number of days from 1 to 180."),
        ({"option": "merge", "entries": "ok=1\nno equals sign"}, "Line 2: write name=value."),
        ({"option": "merge", "entries": "bad_name=1"},
         "Line 1: Metadata name “bad_name” may use only letters, digits and inner hyphens."),
        ({"option": "merge", "entries": "a="}, "Line 1: Metadata “a” has no value."),
        ({"option": "merge", "entries": "secret=abc"},
         "Line 1: change the secret with the secret form below."),
        ({"option": "merge", "entries": "ttl=5"}, "Line 1: set the lifetime with its own field."),
        ({"option": "merge", "entries": "a=1\na=2"}, "Line 2: Metadata “a” is given twice."),
        ({"option": "merge", "entries": ""}, "Give at least one entry or a lifetime."),
        ({"option": "merge", "entries": "a=1", "remove_ttl": "on"},
         "Removing the lifetime needs the Delete option."),
    ],
    ids=["ttl-181", "no-equals", "bad-name", "empty-value", "secret", "ttl-line", "twice",
         "empty", "remove-ttl-merge"],
)
def test_bad_metadata_is_refused_with_the_line_and_nothing_changes(manager_client, doc, fields,
                                                                   message):
    response = manager_client.post(reverse("storage:edit_metadata"),
                                   {"path": "/docs/report.txt", **fields})
    assert response.status_code == 400
    assert message in response.content.decode().replace("&quot;", '"')
    assert stored_metadata(doc, "/docs/report.txt") == {"author": "alice", "ttl": "30"}


def test_the_secret_is_set_changed_and_removed(manager_client, doc):
    endpoint = reverse("storage:edit_secret")
    manager_client.post(endpoint, {"path": "/docs/report.txt", "action": "set",
                                   "secret": "abc123"})
    assert stored_metadata(doc, "/docs/report.txt")["secret"] == "abc123"
    assert StoredFile.objects.get(path="/docs/report.txt").has_secret is True
    manager_client.post(endpoint, {"path": "/docs/report.txt", "action": "set",
                                   "secret": "Other99"})
    assert stored_metadata(doc, "/docs/report.txt")["secret"] == "Other99"
    question = manager_client.post(endpoint, {"path": "/docs/report.txt", "action": "remove"})
    assert "Remove the secret of /docs/report.txt?" in question.content.decode()
    assert stored_metadata(doc, "/docs/report.txt")["secret"] == "Other99"
    manager_client.post(endpoint, {"path": "/docs/report.txt", "action": "remove",
                                   "confirmed": "1"})
    assert "secret" not in stored_metadata(doc, "/docs/report.txt")
    assert StoredFile.objects.get(path="/docs/report.txt").has_secret is False


@pytest.mark.parametrize("secret", ["with-dash", "空格", "a b", ""])
def test_a_secret_other_than_letters_and_digits_is_refused_before_sending(manager_client, doc,
                                                                          secret):
    response = manager_client.post(reverse("storage:edit_secret"), {
        "path": "/docs/report.txt", "action": "set", "secret": secret})
    assert response.status_code == 400
    text = response.content.decode()
    assert ("letters and digits" in text) or ("Give the secret to set." in text)
    assert "secret" not in stored_metadata(doc, "/docs/report.txt")


def test_the_download_streams_the_file_with_its_name(manager_client, provider, sandbox_storage):
    data = pseudo_random_bytes(1_300_000)
    sandbox_storage.upload("/bin/data 1.bin", io.BytesIO(data))
    response = manager_client.get(url("storage:download", "/bin/data 1.bin"))
    assert response.status_code == 200 and response.streaming
    assert b"".join(response.streaming_content) == data
    assert response["Content-Length"] == str(len(data))
    assert response["Content-Disposition"] == 'attachment; filename="data 1.bin"'


def test_downloading_a_missing_file_is_a_404(manager_client, provider):
    assert manager_client.get(url("storage:download", "/missing.bin")).status_code == 404


def test_an_image_preview_is_streamed_inline_and_sandboxed(manager_client, provider,
                                                           sandbox_storage):
    image = png()
    sandbox_storage.upload("/img/a.png", io.BytesIO(image))
    response = manager_client.get(url("storage:preview", "/img/a.png"))
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == image
    assert response["Content-Type"] == "image/png"
    assert response["Content-Disposition"].startswith("inline")
    assert "sandbox" in response["Content-Security-Policy"]
    page = manager_client.get(url("storage:file", "/img/a.png")).content.decode()
    assert 'id="file-preview"' in page


@pytest.mark.parametrize(("name", "body"), [
    ("notes.txt", b"text"),
    ("logo.svg", b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
])
def test_no_preview_for_text_or_svg(manager_client, provider, sandbox_storage, name, body):
    sandbox_storage.upload(f"/img/{name}", io.BytesIO(body))
    assert manager_client.get(url("storage:preview", f"/img/{name}")).status_code == 404


def test_an_auditor_reads_and_downloads_but_cannot_edit(auditor_client, doc):
    page = auditor_client.get(url("storage:file", "/docs/report.txt")).content.decode()
    assert "alice" in page
    assert 'id="metadata-form"' not in page and 'id="secret-form"' not in page
    assert 'id="file-delete"' not in page
    download = auditor_client.get(url("storage:download", "/docs/report.txt"))
    assert b"".join(download.streaming_content) == b"quarterly numbers"
    assert auditor_client.post(reverse("storage:edit_metadata"), {
        "path": "/docs/report.txt", "option": "merge", "entries": "a=1"}).status_code == 403
    assert auditor_client.post(reverse("storage:edit_secret"), {
        "path": "/docs/report.txt", "action": "set", "secret": "abc"}).status_code == 403
    assert stored_metadata(doc, "/docs/report.txt") == {"author": "alice", "ttl": "30"}


def test_removing_the_secret_asks_first_and_go_back_keeps_it(manager_client, doc):
    endpoint = reverse("storage:edit_secret")
    manager_client.post(endpoint, {"path": "/docs/report.txt", "action": "set",
                                   "secret": "abc123"})

    page = manager_client.post(endpoint, {"path": "/docs/report.txt", "action": "remove"},
                               HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()

    assert 'id="confirmation"' in page and "移除 /docs/report.txt 的访问密钥？" in page
    assert 'name="action" value="remove"' in page and 'name="confirmed" value="1"' in page
    assert ('href="/storage/file/?service=demo-bucket&amp;path=%2Fdocs%2Freport.txt" '
            'id="confirm-back"') in page
    assert stored_metadata(doc, "/docs/report.txt")["secret"] == "abc123"


def test_a_forged_remove_of_an_unknown_action_is_refused_without_a_question(manager_client,
                                                                           doc):
    response = manager_client.post(reverse("storage:edit_secret"), {
        "path": "/docs/report.txt", "action": "wipe", "confirmed": "1"})

    assert response.status_code == 400 and 'id="confirmation"' not in response.content.decode()
