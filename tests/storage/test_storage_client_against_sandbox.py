"""Every storage endpoint and error, through the back-office's client, against the real sandbox."""

from __future__ import annotations

import io
import time

import pytest
import requests
from PIL import Image
from requests.structures import CaseInsensitiveDict

from storage.client import (
    LIST_END,
    AuthenticationError,
    BadContentMD5,
    BucketNotFound,
    DirectoryNotEmpty,
    FolderExists,
    InvalidSecret,
    NotFound,
    NotifyingBody,
    RetryPolicy,
    ServiceUnavailable,
    SignatureError,
    StorageClient,
    StorageError,
    UserNotFound,
)
from storage.rules import RuleViolation
from tests.storage.conftest import md5_of, pseudo_random_bytes, synced_client


def client_with(sandbox, **overrides) -> StorageClient:
    info = sandbox.info
    values = {
        "base_url": info["storage_url"],
        "bucket": info["storage"]["bucket"],
        "operator": info["storage"]["operator"],
        "password": info["storage"]["password"],
        **overrides,
    }
    retry = RetryPolicy(attempts=2, sleep=lambda _s: None)
    return StorageClient(values.pop("base_url"), **values, retry=retry)


def png_bytes(width: int = 120, height: int = 80) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 40, 40)).save(buffer, "PNG")
    return buffer.getvalue()


def test_upload_with_every_optional_header_is_stored_as_sent(sandbox_storage):
    data = b"hello storage"
    sandbox_storage.upload(
        "/docs/a.txt",
        io.BytesIO(data),
        content_type="text/plain",
        content_md5=md5_of(data),
        secret="abc123",
        metadata={"author": "alice"},
        ttl_days=30,
    )
    out = io.BytesIO()
    result = sandbox_storage.download("/docs/a.txt", out)
    assert out.getvalue() == data
    assert result.md5 == md5_of(data)
    assert result.content_type.startswith("text/plain")
    assert result.metadata == {"author": "alice", "secret": "abc123", "ttl": "30"}


def test_download_streams_a_multi_mebibyte_file_and_reports_its_md5(sandbox_storage, tmp_path):
    data = pseudo_random_bytes(2_500_000)
    sandbox_storage.upload("/big/blob.bin", io.BytesIO(data))
    target = tmp_path / "blob.bin"
    result = sandbox_storage.download("/big/blob.bin", target)
    assert target.read_bytes() == data
    assert (result.size, result.md5) == (len(data), md5_of(data))


def test_head_reports_type_size_date_and_md5_of_files_and_folders(sandbox_storage):
    sandbox_storage.upload("/h/x.bin", io.BytesIO(b"12345"))
    info = sandbox_storage.head("/h/x.bin")
    assert (info.type, info.size, info.md5) == ("file", 5, md5_of(b"12345"))
    assert info.date is not None
    assert sandbox_storage.head("/h").type == "folder"


def test_missing_paths_are_not_found_for_head_get_and_delete(sandbox_storage):
    with pytest.raises(NotFound) as head:
        sandbox_storage.head("/nope.txt")
    assert head.value.status == 404
    with pytest.raises(NotFound) as get:
        sandbox_storage.download("/nope.txt", io.BytesIO())
    assert get.value.code == 40400001
    with pytest.raises(NotFound):
        sandbox_storage.delete("/nope.txt")


def test_synchronous_delete_removes_the_file_at_once(sandbox_storage):
    sandbox_storage.upload("/d/one.txt", io.BytesIO(b"1"))
    sandbox_storage.delete("/d/one.txt")
    with pytest.raises(NotFound):
        sandbox_storage.head("/d/one.txt")


def test_asynchronous_delete_answers_at_once_and_removes_the_file_later(sandbox, sandbox_storage):
    sandbox_storage.upload("/d/two.txt", io.BytesIO(b"2"))
    sandbox_storage.delete("/d/two.txt", asynchronous=True)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        sandbox.advance(60)
        try:
            sandbox_storage.head("/d/two.txt")
        except NotFound:
            return
        time.sleep(0.2)
    pytest.fail("the asynchronously deleted file is still there")


def test_a_folder_is_created_once_and_refused_the_second_time(sandbox_storage):
    sandbox_storage.create_folder("/albums")
    assert sandbox_storage.head("/albums").type == "folder"
    with pytest.raises(FolderExists) as again:
        sandbox_storage.create_folder("/albums")
    assert again.value.code == 40600002


def test_only_an_empty_folder_can_be_removed(sandbox_storage):
    sandbox_storage.upload("/full/f.txt", io.BytesIO(b"f"))
    with pytest.raises(DirectoryNotEmpty) as refused:
        sandbox_storage.remove_folder("/full")
    assert refused.value.code == 40300005
    sandbox_storage.delete("/full/f.txt")
    sandbox_storage.remove_folder("/full")
    with pytest.raises(NotFound):
        sandbox_storage.head("/full")


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "plain-text"])
def test_listing_pages_follow_the_iterator_to_the_end_marker(sandbox_storage, as_json):
    for index in range(7):
        sandbox_storage.upload(f"/list/f{index}.txt", io.BytesIO(b"x" * index))
    sandbox_storage.create_folder("/list/sub")
    pages, cursor, names = 0, None, []
    while True:
        page = sandbox_storage.list_page("/list", cursor=cursor, limit=3, as_json=as_json)
        pages += 1
        names += [item.name for item in page.items]
        if page.is_last:
            break
        cursor = page.next_iter
    assert pages == 3
    assert names == sorted([f"f{i}.txt" for i in range(7)] + ["sub"])
    folder = next(i for i in sandbox_storage.iter_list("/list", as_json=as_json) if i.name == "sub")
    assert folder.is_folder
    desc = [item.name for item in sandbox_storage.iter_list("/list", order="desc", limit=4)]
    assert desc == sorted(names, reverse=True)


def test_the_last_page_carries_the_documented_end_marker(sandbox_storage):
    sandbox_storage.upload("/end/a.txt", io.BytesIO(b"a"))
    page = sandbox_storage.list_page("/end", limit=10)
    assert page.next_iter == LIST_END


def test_usage_counts_the_bytes_stored(sandbox_storage):
    before = sandbox_storage.usage()
    sandbox_storage.upload("/u/a.bin", io.BytesIO(b"x" * 1000))
    assert sandbox_storage.usage() == before + 1000


def test_metadata_merge_replace_and_delete(sandbox_storage):
    sandbox_storage.upload("/m/a.txt", io.BytesIO(b"a"), metadata={"one": "1", "two": "2"})

    def metadata() -> dict[str, str]:
        return sandbox_storage.download("/m/a.txt", io.BytesIO()).metadata

    sandbox_storage.patch_metadata("/m/a.txt", {"two": "22", "three": "3"})
    assert metadata() == {"one": "1", "two": "22", "three": "3"}
    sandbox_storage.patch_metadata("/m/a.txt", {"only": "x"}, option="replace")
    assert metadata() == {"only": "x"}
    sandbox_storage.patch_metadata("/m/a.txt", {"gone": "soon", "ttl": 5})
    sandbox_storage.delete_metadata("/m/a.txt", ["gone", "ttl"])
    assert metadata() == {"only": "x"}


def test_update_last_modified_moves_the_listing_time_only_when_asked(sandbox, sandbox_storage):
    sandbox_storage.upload("/t/a.txt", io.BytesIO(b"a"))

    def listed_time() -> int:
        return next(iter(sandbox_storage.iter_list("/t"))).last_modified

    first = listed_time()
    sandbox.advance(120)
    sandbox_storage.patch_metadata("/t/a.txt", {"k": "v"})
    assert listed_time() == first
    synced_client(sandbox).patch_metadata("/t/a.txt", {"k": "w"}, update_last_modified=True)
    assert listed_time() >= first + 120


def test_a_ttl_removes_the_file_after_that_many_days(sandbox, sandbox_storage):
    sandbox_storage.upload("/ttl/a.txt", io.BytesIO(b"a"), ttl_days=1)
    sandbox_storage.upload("/ttl/kept.txt", io.BytesIO(b"k"))
    sandbox.advance(2 * 86400)
    later = synced_client(sandbox)
    with pytest.raises(NotFound):
        later.head("/ttl/a.txt")
    assert later.head("/ttl/kept.txt").size == 1


def test_a_ttl_above_180_days_is_refused_before_sending(sandbox_storage):
    with pytest.raises(RuleViolation, match="180"):
        sandbox_storage.upload("/ttl/b.txt", io.BytesIO(b"b"), ttl_days=181)
    with pytest.raises(NotFound):
        sandbox_storage.head("/ttl/b.txt")


def test_a_secret_with_symbols_is_refused_by_the_client_and_by_the_provider(sandbox_storage):
    with pytest.raises(RuleViolation):
        sandbox_storage.upload("/s/a.txt", io.BytesIO(b"a"), secret="not-ok")
    with pytest.raises(InvalidSecret) as refused:
        sandbox_storage.send("PUT", "/s/a.txt", headers={"Content-Secret": "not-ok"},
                             body=b"a", idempotent=True)
    assert refused.value.code == 40300016


def test_a_wrong_content_md5_is_refused(sandbox_storage):
    with pytest.raises(BadContentMD5) as refused:
        sandbox_storage.upload("/md5/a.txt", io.BytesIO(b"abc"), content_md5="0" * 32)
    assert refused.value.code == 40001001
    with pytest.raises(NotFound):
        sandbox_storage.head("/md5/a.txt")


def test_a_notifying_body_is_stored_whole_and_reports_before_the_answer(sandbox_storage):
    data = pseudo_random_bytes(3 * 1024 * 1024 + 7)
    notices: list[float] = []
    body = NotifyingBody(data, on_sent=lambda: notices.append(time.monotonic()))
    response = sandbox_storage.send(
        "PUT", "/notify/a.bin", body=body, content_md5=md5_of(data), idempotent=True
    )
    answered = time.monotonic()
    assert response.status_code == 200
    assert len(notices) == 1 and notices[0] <= answered
    assert sandbox_storage.head("/notify/a.bin").md5 == md5_of(data)


def test_a_wrong_password_is_a_signature_error(sandbox):
    with pytest.raises(SignatureError) as refused:
        client_with(sandbox, password="wrong").usage()
    assert refused.value.code == 40100005 and refused.value.status == 401


def test_an_unknown_operator_and_an_unknown_bucket_are_refused(sandbox):
    with pytest.raises(UserNotFound):
        client_with(sandbox, operator="nobody").usage()
    with pytest.raises(BucketNotFound):
        client_with(sandbox, bucket="no-such-bucket").usage()


def test_the_legacy_signature_scheme_is_accepted(sandbox):
    legacy = client_with(sandbox, scheme="legacy")
    legacy.upload("/legacy/a.txt", io.BytesIO(b"legacy"))
    assert legacy.head("/legacy/a.txt").size == 6


def test_a_clock_an_hour_off_is_corrected_from_the_date_offset_answer(sandbox):
    skewed = client_with(sandbox, clock=lambda: time.time() - 3600)
    skewed.upload("/clock/a.txt", io.BytesIO(b"late"))
    assert skewed.head("/clock/a.txt").size == 4
    assert 3500 < skewed.clock_offset < 3700 + abs(sandbox.now() - time.time())


def test_503_on_an_idempotent_call_is_retried_until_it_succeeds(sandbox, sandbox_storage):
    sandbox_storage.upload("/retry/a.txt", io.BytesIO(b"a"))
    sandbox.add_fault(service="storage", path="/retry/a.txt", method="HEAD", action="status",
                      status=503, times=2)
    assert sandbox_storage.head("/retry/a.txt").size == 1
    hits = sandbox.control("GET", "/faults").json()["faults"][0]["hits"]
    assert hits == 2


def test_429_is_retried_on_a_download(sandbox, sandbox_storage):
    sandbox_storage.upload("/retry/b.txt", io.BytesIO(b"bb"))
    sandbox.add_fault(service="storage", path="/retry/b.txt", method="GET", action="status",
                      status=429, body={"code": 42900002, "msg": "too many requests", "id": "x"},
                      times=1)
    out = io.BytesIO()
    sandbox_storage.download("/retry/b.txt", out)
    assert out.getvalue() == b"bb"


def test_a_failing_folder_creation_is_not_repeated_blindly(sandbox, sandbox_storage):
    sandbox.add_fault(service="storage", path="/once", method="POST", action="status",
                      status=503, body={"code": 50300001, "msg": "unavailable", "id": "y"},
                      times=1)
    with pytest.raises(ServiceUnavailable):
        sandbox_storage.create_folder("/once")
    with pytest.raises(NotFound):
        sandbox_storage.head("/once")


def test_image_preprocessing_resizes_the_stored_image(sandbox_storage):
    result = sandbox_storage.upload(
        "/img/red.png",
        io.BytesIO(png_bytes(120, 80)),
        gmkerl={"type": "fix_width", "value": "60", "quality": "90"},
    )
    assert (result.width, result.height) == (60, 40)
    out = io.BytesIO()
    sandbox_storage.download("/img/red.png", out)
    assert Image.open(io.BytesIO(out.getvalue())).size == (60, 40)


def test_a_file_written_in_parts_cannot_be_overwritten_by_a_plain_upload(sandbox_storage):
    from storage.resumable import resumable_upload

    resumable_upload(sandbox_storage, "/parts/a.bin", io.BytesIO(pseudo_random_bytes(1_500_000)))
    with pytest.raises(StorageError) as refused:
        sandbox_storage.upload("/parts/a.bin", io.BytesIO(b"small"))
    assert refused.value.code == 40000000  # the error table has no row for it



def test_exists_tells_a_file_or_folder_from_nothing(sandbox_storage):
    sandbox_storage.upload("/there/a.txt", io.BytesIO(b"abc"))
    assert sandbox_storage.exists("/there/a.txt")
    assert sandbox_storage.exists("/there")
    assert not sandbox_storage.exists("/there/missing.txt")


def test_exists_raises_a_failure_other_than_not_found(sandbox):
    with pytest.raises(AuthenticationError):  # a HEAD answer carries no code
        client_with(sandbox, password="wrong").exists("/anything.txt")


def recording_session(sent: list[CaseInsensitiveDict[str]]) -> requests.Session:
    """A session that keeps the headers of every request it sends."""
    session = requests.Session()
    session.hooks["response"].append(lambda response, **_: sent.append(response.request.headers))
    return session


@pytest.mark.parametrize("scheme", ["current", "legacy"])
def test_the_client_can_sign_with_x_date_instead_of_date(sandbox, scheme):
    sent: list[CaseInsensitiveDict[str]] = []
    client = client_with(sandbox, scheme=scheme, date_header="X-Date",
                         session=recording_session(sent))
    client.upload("/x-date/a.txt", io.BytesIO(b"dated"), metadata={"k": "v"})
    assert client.head("/x-date/a.txt").size == 5
    client.patch_metadata("/x-date/a.txt", {"k": "w"})
    assert [item.name for item in client.list_page("/x-date").items] == ["a.txt"]
    client.delete("/x-date/a.txt")
    assert sent and all("X-Date" in headers and "Date" not in headers for headers in sent)


def test_a_client_signing_x_date_corrects_its_clock_from_the_date_offset_answer(sandbox):
    skewed = client_with(sandbox, date_header="X-Date", clock=lambda: time.time() - 3600)
    skewed.upload("/clock/x.txt", io.BytesIO(b"late"))
    assert 3500 < skewed.clock_offset < 3700 + abs(sandbox.now() - time.time())
