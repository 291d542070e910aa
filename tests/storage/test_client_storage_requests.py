r"""StorageClient request building and answer parsing, endpoint by endpoint.

Signatures are hard-coded values computed in a shell (see each comment), with
D='Wed, 29 Oct 2014 02:26:58 GMT' and PW=$(printf '%s' password | md5sum):
    printf '%s' "<METHOD>&<URI>&$D[&<Content-MD5>]" \
        | openssl dgst -sha1 -hmac "$PW" -binary | base64
"""

import hashlib
import io
from datetime import UTC, datetime
from typing import Any

import pytest
import requests
import responses

from storage.client import (
    CHUNK_SIZE,
    LIST_END,
    FileBody,
    ListItem,
    NotFound,
    NotifyingBody,
    RetryPolicy,
    StorageClient,
    StorageProtocolError,
)
from storage.rules import RuleViolation

BASE = "http://storage.test:8103"
DATE = "Wed, 29 Oct 2014 02:26:58 GMT"
NOW = 1414549618.0
HELLO_MD5 = "5eb63bbbe01eeed093cb22bb8f5acdc3"  # printf '%s' 'hello world' | md5sum


@pytest.fixture
def mock():
    with responses.RequestsMock() as rsps:
        yield rsps


def make_client(**overrides) -> StorageClient:
    options: dict[str, Any] = {"clock": lambda: NOW,
                               "retry": RetryPolicy(sleep=lambda seconds: None)}
    options.update(overrides)
    return StorageClient(BASE, "demo", "ops", "password", **options)


def sent(mock, index=0):
    return mock.calls[index].request


class RecordingSession(requests.Session):
    """Keeps the `data` handed to requests, before the mock reads it into bytes."""

    def __init__(self, on_send=None):
        super().__init__()
        self.bodies = []
        self.on_send = on_send

    def request(self, method, url, **kwargs):  # type: ignore[override]  # a test double
        self.bodies.append(kwargs.get("data"))
        if self.on_send:
            self.on_send()
        return super().request(method, url, **kwargs)


def streamed(body) -> list[bytes]:
    assert isinstance(body, FileBody), f"expected a streamed body, got {type(body)}"
    body.rewind()
    return list(body)


# --- upload ---


def test_upload_streams_a_file_object_with_its_md5_and_signature(mock):
    mock.put(f"{BASE}/demo/photos/cat.jpg", status=200)
    session = RecordingSession()
    result = make_client(session=session).upload("photos/cat.jpg", io.BytesIO(b"hello world"))
    request = sent(mock)
    assert request.headers["Date"] == DATE
    assert request.headers["Content-Length"] == "11"
    assert request.headers["Content-MD5"] == HELLO_MD5
    # "PUT&/demo/photos/cat.jpg&$D&5eb63bbbe01eeed093cb22bb8f5acdc3"
    assert request.headers["Authorization"] == "SVC ops:IhpSi6rO7fJ89ftG2HSoON2RD1g="
    assert "Transfer-Encoding" not in request.headers
    assert request.body == b"hello world"
    assert b"".join(streamed(session.bodies[0])) == b"hello world"  # never one bytes object
    assert result.size == 11 and result.content_md5 == HELLO_MD5
    assert result.width is None and result.file_type is None


def test_upload_without_md5_signs_without_it(mock):
    mock.put(f"{BASE}/demo/photos/cat.jpg", status=200)
    make_client().upload("/photos/cat.jpg", io.BytesIO(b"hello world"), content_md5=False)
    request = sent(mock)
    assert "Content-MD5" not in request.headers
    # "PUT&/demo/photos/cat.jpg&$D"
    assert request.headers["Authorization"] == "SVC ops:REfWETizaovGS61tGjy1Oz1fgTk="


def test_upload_sends_a_given_md5_as_is(mock):
    mock.put(f"{BASE}/demo/photos/cat.jpg", status=200)
    make_client().upload("photos/cat.jpg", io.BytesIO(b"hello world"), content_md5=HELLO_MD5)
    assert sent(mock).headers["Authorization"] == "SVC ops:IhpSi6rO7fJ89ftG2HSoON2RD1g="


def test_upload_with_the_legacy_scheme_signs_length_and_encoded_path(mock):
    mock.put(f"{BASE}/demo/a%20b/%E4%BD%A0.txt", status=200)
    client = StorageClient(BASE, "demo", "ops", "s3cr3t-Pa55", scheme="legacy", clock=lambda: NOW)
    client.upload("a b/你.txt", io.BytesIO(b"hello world"))
    # md5("PUT&/demo/a%20b/%E4%BD%A0.txt&$D&11&" + md5("s3cr3t-Pa55"))
    assert sent(mock).headers["Authorization"] == "SVC ops:0125f0322fecf03e5bc2b9bde7bdaf05"
    assert sent(mock).url == f"{BASE}/demo/a%20b/%E4%BD%A0.txt"


def test_upload_from_a_path_sends_every_optional_header_and_reads_image_answer(mock, tmp_path):
    source = tmp_path / "cat.jpg"
    source.write_bytes(b"\xff\xd8 not really a jpeg")
    mock.put(
        f"{BASE}/demo/photos/cat.jpg",
        status=200,
        headers={
            "x-svc-width": "50",
            "x-svc-height": "40",
            "x-svc-file-type": "JPEG",
            "x-svc-frames": "1",
        },
    )
    result = make_client().upload(
        "photos/cat.jpg",
        source,
        content_type="image/jpeg",
        secret="abc123",
        metadata={"Author": "Ann"},
        ttl_days=30,
        gmkerl={"type": "fix_width", "value": 100, "quality": 90},
    )
    headers = sent(mock).headers
    assert headers["Content-Type"] == "image/jpeg"
    assert headers["Content-Secret"] == "abc123"
    assert headers["x-svc-meta-author"] == "Ann"
    assert headers["x-svc-meta-ttl"] == "30"
    assert headers["x-gmkerl-type"] == "fix_width"
    assert headers["x-gmkerl-value"] == "100"
    assert headers["x-gmkerl-quality"] == "90"
    assert (result.width, result.height, result.file_type, result.frames) == (50, 40, "JPEG", 1)


def test_upload_sends_the_whole_file_even_when_it_was_already_read(mock):
    mock.put(f"{BASE}/demo/a.txt", status=200)
    source = io.BytesIO(b"hello world")
    source.read()
    result = make_client().upload("a.txt", source)
    assert result.size == 11
    assert sent(mock).body == b"hello world"


def test_upload_of_an_empty_file_sends_a_zero_length_body(mock):
    mock.put(f"{BASE}/demo/empty.txt", status=200)
    make_client().upload("empty.txt", io.BytesIO(b""), content_md5=False)
    request = sent(mock)
    assert request.headers["Content-Length"] == "0"
    assert "Transfer-Encoding" not in request.headers
    # "PUT&/demo/empty.txt&$D"
    assert request.headers["Authorization"] == "SVC ops:DYI48dTIiVFnov8clJQja54ng84="


def test_upload_reads_large_files_in_bounded_chunks(mock):
    class SpyFile(io.BytesIO):
        largest_read = 0

        def read(self, size=-1):
            data = super().read(size)
            SpyFile.largest_read = max(SpyFile.largest_read, len(data))
            return data

    payload = bytes(range(256)) * (3 * 4096 + 7)  # a little over 3 MiB
    mock.put(f"{BASE}/demo/big.bin", status=200)
    reads_before_sending = []
    session = RecordingSession(on_send=lambda: reads_before_sending.append(SpyFile.largest_read))
    result = make_client(session=session).upload("big.bin", SpyFile(payload))
    assert result.content_md5 == hashlib.md5(payload).hexdigest()
    assert reads_before_sending[0] <= CHUNK_SIZE  # the MD5 pass read in chunks
    body = session.bodies[0]
    assert len(body) == len(payload)
    chunks = streamed(body)
    assert b"".join(chunks) == payload
    assert max(len(chunk) for chunk in chunks) <= CHUNK_SIZE


def test_upload_rejects_bad_headers_before_any_request(mock):
    with pytest.raises(RuleViolation) as caught:
        make_client().upload(
            "a.txt",
            io.BytesIO(b"x"),
            secret="not-ok",
            metadata={"ttl": 5},
            ttl_days=200,
            gmkerl={"quality": 0},
        )
    fields = {problem.field for problem in caught.value.problems}
    assert fields == {"x-svc-meta-ttl", "Content-Secret", "x-gmkerl-quality"}
    assert len(mock.calls) == 0


@pytest.mark.parametrize("path", ["", "/", "a//b", "../etc/passwd"])
def test_upload_rejects_bad_paths_before_reading_the_file(mock, path):
    class Untouchable(io.BytesIO):
        def read(self, size=-1):
            raise AssertionError("the file must not be read")

    with pytest.raises(RuleViolation):
        make_client().upload(path, Untouchable(b"x"))
    assert len(mock.calls) == 0


def test_upload_rejects_a_bad_content_md5_string(mock):
    with pytest.raises(RuleViolation, match="Content-MD5 must be 32 hex digits"):
        make_client().upload("a.txt", io.BytesIO(b"x"), content_md5="abc")


def test_upload_refuses_streams_it_cannot_rewind_and_text_files(mock, tmp_path):
    class Pipe(io.RawIOBase):
        def readable(self):
            return True

        def seekable(self):
            return False

    with pytest.raises(ValueError, match="seekable"):
        make_client().upload("a.txt", Pipe())  # type: ignore[arg-type]  # deliberately wrong
    text_file = tmp_path / "t.txt"
    text_file.write_text("hi")
    with open(text_file) as handle, pytest.raises(ValueError, match="binary mode"):
        make_client().upload("a.txt", handle)  # type: ignore[arg-type]  # deliberately text
    assert len(mock.calls) == 0


# --- download ---


def test_download_writes_chunks_and_reports_metadata(mock):
    payload = b"0123456789" * 20_000
    mock.get(
        f"{BASE}/demo/photos/cat.jpg",
        body=payload,
        headers={"Content-Type": "image/jpeg", "x-svc-meta-author": "Ann", "x-svc-meta-ttl": "7"},
    )
    target = io.BytesIO()
    result = make_client().download("photos/cat.jpg", target)
    assert target.getvalue() == payload
    assert result.size == len(payload)
    assert result.md5 == hashlib.md5(payload).hexdigest()
    assert result.content_type == "image/jpeg"
    assert result.metadata == {"author": "Ann", "ttl": "7"}
    # "GET&/demo/photos/cat.jpg&$D"
    assert sent(mock).headers["Authorization"] == "SVC ops:47aIR4xkTwhHRK9VsBRJq0dPD3g="


def test_download_to_a_path_leaves_it_alone_when_the_file_is_missing(mock, tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"keep me")
    mock.get(
        f"{BASE}/demo/missing.bin",
        status=404,
        json={"msg": "file or directory not found", "code": 40400001, "id": "r1"},
    )
    with pytest.raises(NotFound):
        make_client().download("missing.bin", target)
    assert target.read_bytes() == b"keep me"


def test_download_to_a_path_writes_the_file(mock, tmp_path):
    mock.get(f"{BASE}/demo/a.txt", body=b"hello")
    target = tmp_path / "a.txt"
    assert make_client().download("a.txt", target).size == 5
    assert target.read_bytes() == b"hello"


# --- delete, folders, head ---


def test_delete_is_synchronous_by_default(mock):
    mock.delete(f"{BASE}/demo/photos/cat.jpg", status=200)
    make_client().delete("photos/cat.jpg")
    headers = sent(mock).headers
    assert "x-svc-async" not in headers
    # "DELETE&/demo/photos/cat.jpg&$D"
    assert headers["Authorization"] == "SVC ops:a8IdssHkAdTuqfzffFeKZSIsp/4="


def test_delete_can_be_asynchronous(mock):
    mock.delete(f"{BASE}/demo/photos/cat.jpg", status=200)
    make_client().delete("photos/cat.jpg", asynchronous=True)
    assert sent(mock).headers["x-svc-async"] == "true"


def test_legacy_delete_signs_a_zero_length(mock):
    mock.delete(f"{BASE}/demo/photos/cat.jpg", status=200)
    make_client(scheme="legacy").delete("photos/cat.jpg")
    # md5("DELETE&/demo/photos/cat.jpg&$D&0&5f4dcc3b5aa765d61d8327deb882cf99")
    assert sent(mock).headers["Authorization"] == "SVC ops:7f973dbdc7536014fb789e875500edca"


def test_create_folder_posts_folder_true(mock):
    mock.post(f"{BASE}/demo/photos", status=200)
    make_client().create_folder("photos/")
    request = sent(mock)
    assert request.headers["folder"] == "true"
    assert request.headers["Content-Length"] == "0"
    # "POST&/demo/photos&$D"
    assert request.headers["Authorization"] == "SVC ops:RTk93FrDR9KlSl9Y6G6uQpALLoY="


def test_remove_folder_deletes_the_folder_path(mock):
    mock.delete(f"{BASE}/demo/photos", status=200)
    make_client().remove_folder("/photos/")
    assert sent(mock).method == "DELETE"


def test_head_reads_type_size_date_and_md5(mock):
    mock.head(
        f"{BASE}/demo/photos/cat.jpg",
        headers={
            "x-svc-file-type": "file",
            "x-svc-file-size": "4237",
            "x-svc-file-date": "1415096225",
            "Content-Md5": HELLO_MD5,
        },
    )
    info = make_client().head("photos/cat.jpg")
    assert info.type == "file"
    assert info.size == 4237
    assert info.date == datetime(2014, 11, 4, 10, 17, 5, tzinfo=UTC)
    assert info.md5 == HELLO_MD5
    # "HEAD&/demo/photos/cat.jpg&$D"
    assert sent(mock).headers["Authorization"] == "SVC ops:K1FQ6wj4+Q6NhwvrWw4ys79y24U="


def test_head_accepts_an_http_date_and_missing_fields(mock):
    mock.head(
        f"{BASE}/demo/photos",
        headers={"x-svc-file-type": "folder", "x-svc-file-date": DATE},
    )
    info = make_client().head("photos")
    assert info.type == "folder"
    assert info.size is None and info.md5 is None
    assert info.date == datetime(2014, 10, 29, 2, 26, 58, tzinfo=UTC)


# --- listing ---


def test_list_page_asks_for_json_and_parses_it(mock):
    mock.get(
        f"{BASE}/demo/photos",
        json={
            "files": [
                {
                    "type": "image/jpeg",
                    "length": 4237,
                    "name": "cat.jpg",
                    "last_modified": 1415096225,
                },
                {"type": "folder", "length": 0, "name": "old", "last_modified": 1415096260},
            ],
            "iter": "c2Rmc2Rs",
        },
        headers={"x-svc-list-iter": "c2Rmc2Rs"},
    )
    page = make_client().list_page("photos", limit=2, order="desc")
    headers = sent(mock).headers
    assert headers["Accept"] == "application/json"
    assert headers["x-list-limit"] == "2"
    assert headers["x-list-order"] == "desc"
    assert "x-list-iter" not in headers
    # "GET&/demo/photos&$D"
    assert headers["Authorization"] == "SVC ops:/s1ytXRosamufNVQE9lFQD6ZfOs="
    assert page.items == [
        ListItem("cat.jpg", False, 4237, 1415096225, "image/jpeg"),
        ListItem("old", True, 0, 1415096260, None),
    ]
    assert page.next_iter == "c2Rmc2Rs" and not page.is_last


def test_list_page_parses_the_plain_text_form(mock):
    mock.get(
        f"{BASE}/demo/",
        body="foo.jpg\tN\t4237\t1415096225\nbar\tF\t423404\t1415096260\n",
        headers={"x-svc-list-iter": LIST_END, "Content-Type": "text/plain"},
    )
    page = make_client().list_page("/", as_json=False)
    assert "Accept" not in sent(mock).headers or sent(mock).headers["Accept"] != "application/json"
    # "GET&/demo/&$D"
    assert sent(mock).headers["Authorization"] == "SVC ops:Rlz+qLnTGFXJYrgTwUtabm4Zs+E="
    assert page.items == [
        ListItem("foo.jpg", False, 4237, 1415096225),
        ListItem("bar", True, 423404, 1415096260),
    ]
    assert page.is_last


def test_list_page_of_an_empty_folder_has_no_items(mock):
    mock.get(f"{BASE}/demo/empty", body="", headers={"x-svc-list-iter": LIST_END})
    assert make_client().list_page("empty", as_json=False).items == []


@pytest.mark.parametrize(
    "body",
    ["foo.jpg\tN\t4237\n", "foo.jpg\tX\t1\t2\n", "foo.jpg\tN\tbig\t2\n"],
)
def test_list_page_refuses_malformed_text_lines(mock, body):
    mock.get(f"{BASE}/demo/", body=body, headers={"x-svc-list-iter": LIST_END})
    with pytest.raises(StorageProtocolError, match="line 1"):
        make_client().list_page("/", as_json=False)


def test_list_page_refuses_malformed_json(mock):
    mock.get(f"{BASE}/demo/", json={"files": [{"type": "folder"}]})
    with pytest.raises(StorageProtocolError, match="malformed JSON listing"):
        make_client().list_page("/")


def test_list_page_rejects_a_limit_above_10000_before_calling(mock):
    with pytest.raises(RuleViolation, match="x-list-limit"):
        make_client().list_page("/", limit=10_001)
    assert len(mock.calls) == 0


def test_iter_list_follows_cursors_until_the_end_marker(mock):
    def page(names, cursor):
        return {
            "json": {
                "files": [
                    {"type": "text/plain", "length": 1, "name": name, "last_modified": 1}
                    for name in names
                ]
            },
            "headers": {"x-svc-list-iter": cursor},
        }

    url = f"{BASE}/demo/docs"
    mock.get(url, **page(["a", "b"], "CURSOR1"))
    mock.get(url, **page(["c", "d"], "CURSOR2"))
    mock.get(url, **page(["e"], LIST_END))
    names = [item.name for item in make_client().iter_list("docs", limit=2)]
    assert names == ["a", "b", "c", "d", "e"]
    cursors = [call.request.headers.get("x-list-iter") for call in mock.calls]
    assert cursors == [None, "CURSOR1", "CURSOR2"]


def test_iter_list_stops_when_the_answer_has_no_cursor(mock):
    mock.get(f"{BASE}/demo/docs", json={"files": []})
    assert list(make_client().iter_list("docs")) == []


def test_iter_list_refuses_a_cursor_that_does_not_move(mock):
    url = f"{BASE}/demo/docs"
    mock.get(url, json={"files": []}, headers={"x-svc-list-iter": "SAME"})
    mock.get(url, json={"files": []}, headers={"x-svc-list-iter": "SAME"})
    with pytest.raises(StorageProtocolError, match="same cursor"):
        list(make_client().iter_list("docs"))


# --- usage and metadata ---


def test_usage_reads_bytes_from_the_body(mock):
    mock.get(f"{BASE}/demo/?usage", body="123456789\n")
    assert make_client().usage() == 123456789
    assert sent(mock).url == f"{BASE}/demo/?usage"
    # "GET&/demo/?usage&$D"
    assert sent(mock).headers["Authorization"] == "SVC ops:Rh4NKMhi3CV6O5lvSSQTrGziYKs="


def test_usage_refuses_a_body_that_is_not_a_number(mock):
    mock.get(f"{BASE}/demo/?usage", body="lots")
    with pytest.raises(StorageProtocolError, match="byte count"):
        make_client().usage()


def test_patch_metadata_merges_and_can_update_last_modified(mock):
    url = f"{BASE}/demo/a.txt?metadata=merge&update_last_modified=true"
    mock.patch(url, status=200)
    make_client().patch_metadata("a.txt", {"a": "2", "b": "3"}, update_last_modified=True)
    request = sent(mock)
    assert request.url == url
    assert request.headers["x-svc-meta-a"] == "2"
    assert request.headers["x-svc-meta-b"] == "3"
    # "PATCH&/demo/a.txt?metadata=merge&update_last_modified=true&$D"
    assert request.headers["Authorization"] == "SVC ops:SMKr2S9hLXhAe8r16RSFuwYcIiE="


def test_patch_metadata_replace_changes_the_secret(mock):
    mock.patch(f"{BASE}/demo/a.txt?metadata=replace", status=200)
    make_client().patch_metadata("a.txt", {"secret": "newSecret1"}, option="replace")
    request = sent(mock)
    assert request.headers["x-svc-meta-secret"] == "newSecret1"
    # "PATCH&/demo/a.txt?metadata=replace&$D"
    assert request.headers["Authorization"] == "SVC ops:IEeYBktzeU1T287WkQOwTEzCNKs="


def test_delete_metadata_names_the_entries(mock):
    mock.patch(f"{BASE}/demo/a.txt?metadata=delete", status=200)
    make_client().delete_metadata("a.txt", ["A", "secret"])
    request = sent(mock)
    assert request.headers["x-svc-meta-a"] == "true"
    assert request.headers["x-svc-meta-secret"] == "true"
    # "PATCH&/demo/a.txt?metadata=delete&$D"
    assert request.headers["Authorization"] == "SVC ops:eyhWkThoAK2F/Xt/JLt/+yk14X0="


def test_metadata_changes_reject_bad_input_before_calling(mock):
    client = make_client()
    with pytest.raises(ValueError, match="delete_metadata"):
        client.patch_metadata("a.txt", {"a": "1"}, option="delete")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="nothing to change"):
        client.patch_metadata("a.txt", {})
    with pytest.raises(ValueError, match="nothing to delete"):
        client.delete_metadata("a.txt", [])
    with pytest.raises(RuleViolation, match="x-svc-meta-ttl must be from 1 to 180"):
        client.patch_metadata("a.txt", {"ttl": 181})
    with pytest.raises(RuleViolation, match="may use only letters"):
        client.delete_metadata("a.txt", ["bad name"])
    assert len(mock.calls) == 0


# --- construction ---


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"base_url": "storage.test"}, "base_url"),
        ({"base_url": "http://storage.test/api"}, "path"),
        ({"bucket": ""}, "bucket"),
        ({"bucket": "a/b"}, "bucket"),
        ({"operator": ""}, "operator"),
        ({"scheme": "basic"}, "scheme"),
        ({"date_header": "x-date"}, "date_header"),
        ({"timeout": 0}, "timeout"),
    ],
)
def test_constructor_rejects_bad_settings(kwargs, message):
    arguments: dict[str, Any] = {"base_url": BASE, "bucket": "demo", "operator": "ops",
                                 "password": "pw"}
    arguments.update(kwargs)
    with pytest.raises(ValueError, match=message):
        StorageClient(**arguments)


def test_repr_never_shows_the_password():
    assert "password" not in repr(StorageClient(BASE, "demo", "ops", "password"))


def test_a_notifying_body_reports_once_its_bytes_are_consumed_and_is_signed_by_length(mock):
    notices: list[str] = []
    body = NotifyingBody(b"hello world", on_sent=lambda: notices.append("sent"))
    chunks = iter(body)
    assert next(chunks) == b"hello world" and notices == []
    assert list(chunks) == [] and notices == ["sent"]
    mock.add(responses.PUT, f"{BASE}/demo/photos/cat.jpg")
    make_client().send("PUT", "photos/cat.jpg", body=body, content_md5=HELLO_MD5, idempotent=True)
    assert sent(mock).headers["Content-Length"] == "11"
    # "PUT&/demo/photos/cat.jpg&$D&5eb63bbbe01eeed093cb22bb8f5acdc3", as for upload above
    assert sent(mock).headers["Authorization"] == "SVC ops:IhpSi6rO7fJ89ftG2HSoON2RD1g="


# --- environment ---


def test_the_environment_is_read_once_and_a_netrc_never_replaces_the_signature(
    mock, monkeypatch, tmp_path
):
    netrc = tmp_path / ".netrc"
    netrc.write_text("machine storage.test login someone password secret\n")
    netrc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc))
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.test:3128")
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", "/etc/ssl/certs/ca-certificates.crt")
    client = make_client()
    monkeypatch.setenv("HTTP_PROXY", "http://changed.test:3128")  # read at construction only
    assert client.session.proxies["http"] == "http://proxy.test:3128"
    assert client.session.verify == "/etc/ssl/certs/ca-certificates.crt"
    assert client.session.trust_env is False
    mock.add(responses.DELETE, f"{BASE}/demo/a.txt")
    client.delete("a.txt")
    assert sent(mock).headers["Authorization"].startswith("SVC ops:")


def test_a_host_in_no_proxy_goes_direct_and_a_given_session_keeps_its_settings(monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.test:3128")
    monkeypatch.setenv("NO_PROXY", "storage.test")
    assert "http" not in make_client().session.proxies
    session = requests.Session()
    session.proxies = {"http": "http://mine.test:8080"}
    session.verify = False
    client = make_client(session=session)
    assert client.session.proxies == {"http": "http://mine.test:8080"}
    assert client.session.verify is False
