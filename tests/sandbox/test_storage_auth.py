"""Storage authentication: both signature schemes, Basic, every refusal code with the error
table's message, the 30-minute window."""

from __future__ import annotations

import base64
import hashlib

import pytest
import requests

from tests.sandbox.test_storage_client import StorageClient, assert_error


@pytest.fixture
def storage(sandbox):
    return StorageClient(sandbox)


@pytest.mark.parametrize("scheme", ["legacy", "current"])
def test_it_accepts_both_schemes_for_every_method(storage, scheme):
    assert storage.put("/auth/a.txt", b"hello", scheme=scheme).status_code == 200
    assert storage.get("/auth/a.txt", scheme=scheme).content == b"hello"
    assert storage.head("/auth/a.txt", scheme=scheme).status_code == 200
    assert storage.patch("/auth/a.txt", headers={"x-svc-meta-k": "v"},
                         scheme=scheme).status_code == 200
    assert storage.mkdir("/auth/dir", scheme=scheme).status_code == 200
    assert storage.get("/", query="usage", scheme=scheme).text == "5"
    assert storage.delete("/auth/a.txt", scheme=scheme).status_code == 200


def test_the_current_scheme_signs_the_content_md5_when_it_is_sent(storage):
    body = b"signed with its digest"
    digest = hashlib.md5(body).hexdigest()
    assert storage.put("/auth/md5.txt", body, headers={"Content-MD5": digest}).status_code == 200
    # Signed without the digest but sent with it: the signed string differs.
    uri = storage.uri("/auth/md5.txt")
    headers = {"Date": storage.date(), "Content-MD5": digest}
    headers["Authorization"] = storage.authorization("PUT", uri, {"Date": headers["Date"]},
                                                     len(body), "current", None, None)
    response = requests.put(storage.base + uri, data=body, headers=headers, timeout=30)
    assert_error(response, 40100005)


def test_the_legacy_scheme_signs_the_content_length(storage):
    uri = storage.uri("/auth/len.txt")
    headers = {"Date": storage.date()}
    headers["Authorization"] = storage.authorization("PUT", uri, headers, 3, "legacy", None, None)
    response = requests.put(storage.base + uri, data=b"four", headers=headers, timeout=30)
    assert_error(response, 40100005)


def test_the_signature_covers_the_query(storage):
    storage.put("/auth/q.txt", b"x")
    uri = storage.uri("/auth/q.txt", "metadata=merge")
    headers = {"Date": storage.date(), "x-svc-meta-a": "b"}
    headers["Authorization"] = storage.authorization(
        "PATCH", storage.uri("/auth/q.txt"), headers, 0, "current", None, None)
    response = requests.patch(storage.base + uri, headers=headers, timeout=30)
    assert_error(response, 40100005)


def test_it_accepts_an_encoded_chinese_path(storage):
    assert storage.put("/中文/文件 1.txt", b"ni hao").status_code == 200
    assert storage.get("/中文/文件 1.txt", scheme="legacy").content == b"ni hao"


def test_it_rejects_a_request_without_authorization(storage):
    body = assert_error(storage.get("/", sign=False), 40100004)
    assert body["msg"] == "need authorization header"


@pytest.mark.parametrize("value", ["SVC no-colon", "SVC :sig", "SVC op:"])
def test_it_rejects_a_malformed_authorization(storage, value):
    response = storage.get("/", headers={"Authorization": value}, sign=False)
    assert "SVC <operator>:<signature>" in assert_error(response, 40100005)["detail"]


@pytest.mark.parametrize("value", ["Bearer abc", "Digest op:sig", "UPYUN op:sig"])
def test_it_rejects_another_authorization_scheme_as_an_unknown_realm(storage, value):
    response = storage.get("/", headers={"Authorization": value}, sign=False)
    assert "use SVC or Basic" in assert_error(response, 40100003)["detail"]


# --- Basic authentication (api/authorization.md): the REST API takes it, with no date ---


def basic(operator: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{operator}:{password}".encode()).decode()


def test_basic_authentication_needs_no_date(storage):
    uri = storage.uri("/basic/a.txt")
    credential = {"Authorization": basic(storage.operator, storage.password)}
    put = requests.put(storage.base + uri, data=b"basic", headers=credential, timeout=30)
    assert put.status_code == 200, put.text
    got = requests.get(storage.base + uri, headers=credential, timeout=30)
    assert got.content == b"basic"


def test_basic_authentication_with_a_wrong_password_is_a_password_error(storage):
    response = storage.get("/", headers={"Authorization": basic(storage.operator, "wrong")},
                           sign=False)
    assert_error(response, 40100009)


def test_basic_authentication_of_an_unknown_operator_is_refused(storage):
    response = storage.get("/", headers={"Authorization": basic("nobody", "x")}, sign=False)
    assert_error(response, 40100006)


@pytest.mark.parametrize("value", ["Basic abc", "Basic bm8tY29sb24=", "Basic OnBhc3M="])
def test_basic_authentication_that_does_not_decode_to_operator_and_password_is_refused(
        storage, value):
    response = storage.get("/", headers={"Authorization": value}, sign=False)
    assert "Basic base64(<operator>:<password>)" in assert_error(response, 40100005)["detail"]


def test_it_rejects_a_wrong_signature(storage):
    assert_error(storage.get("/", password="not-the-password"), 40100005)


def test_it_rejects_an_unknown_operator(storage):
    assert_error(storage.get("/", operator="somebody-else"), 40100006)


def test_it_rejects_an_unknown_bucket(storage):
    assert_error(storage.get("/", bucket="no-such-bucket"), 40100012)


def test_it_rejects_a_missing_date(storage):
    uri = storage.uri("/")
    authorization = storage.authorization("GET", uri, {"Date": storage.date()}, 0, "current",
                                          None, None)
    response = requests.get(storage.base + uri, headers={"Authorization": authorization},
                            timeout=30)
    assert "send a Date header" in assert_error(response, 40100001)["detail"]


def test_it_rejects_a_date_that_is_not_rfc_1123_as_unreadable(storage):
    response = storage.get("/", date="2025-07-09T10:00:00Z")
    assert "RFC 1123" in assert_error(response, 40100016)["detail"]


@pytest.mark.parametrize("offset", [-29 * 60, 29 * 60])
def test_it_accepts_a_date_within_thirty_minutes(storage, offset):
    assert storage.get("/", date=storage.date(offset)).status_code == 200


@pytest.mark.parametrize("offset", [-31 * 60, 31 * 60])
def test_it_rejects_a_date_more_than_thirty_minutes_away(storage, offset):
    assert_error(storage.get("/", date=storage.date(offset)), 40100002)


def test_the_window_follows_the_sandbox_clock(storage, sandbox):
    date = storage.date()
    assert storage.get("/", date=date).status_code == 200
    sandbox.advance(31 * 60)
    assert_error(storage.get("/", date=date), 40100002)
    assert storage.get("/").status_code == 200  # a Date from the moved clock is fresh


def test_an_unknown_path_without_a_bucket_answers_in_the_error_shape(storage):
    assert_error(requests.get(storage.base + "/", timeout=30), 40400001)


# --- X-Date: the provider's JavaScript SDK signs it instead of Date (DECISIONS.md) ---


def dated_get(storage, dates: dict[str, str], signed: str, scheme: str = "current"):
    """GET of the bucket root with exactly the date headers `dates`, signed over `signed`."""
    uri = storage.uri("/")
    authorization = storage.authorization("GET", uri, {"Date": signed}, 0, scheme, None, None)
    return requests.get(storage.base + uri, headers={**dates, "Authorization": authorization},
                        timeout=30)


@pytest.mark.parametrize("scheme", ["legacy", "current"])
def test_it_accepts_x_date_in_place_of_date(storage, scheme):
    date = storage.date()
    assert dated_get(storage, {"X-Date": date}, date, scheme).status_code == 200


def test_when_both_are_sent_x_date_is_the_one_signed(storage):
    x_date, date = storage.date(), storage.date(-60)
    both = {"X-Date": x_date, "Date": date}
    assert dated_get(storage, both, x_date).status_code == 200
    assert_error(dated_get(storage, both, date), 40100005)


def test_when_both_are_sent_a_stale_x_date_is_refused_beside_a_fresh_date(storage):
    stale, fresh = storage.date(-31 * 60), storage.date()
    response = dated_get(storage, {"X-Date": stale, "Date": fresh}, stale)
    assert "X-Date is -18" in assert_error(response, 40100002)["detail"]


def test_it_rejects_a_malformed_x_date(storage):
    response = dated_get(storage, {"X-Date": "2025-07-09T10:00:00Z"}, "2025-07-09T10:00:00Z")
    assert "X-Date must be an RFC 1123" in assert_error(response, 40100016)["detail"]


@pytest.mark.parametrize("offset", [-31 * 60, 31 * 60])
def test_it_rejects_a_stale_x_date(storage, offset):
    date = storage.date(offset)
    assert_error(dated_get(storage, {"X-Date": date}, date), 40100002)


def test_it_rejects_an_empty_x_date_even_beside_a_fresh_date(storage):
    date = storage.date()
    response = dated_get(storage, {"X-Date": "", "Date": date}, date)
    assert "X-Date header is empty" in assert_error(response, 40100001)["detail"]


def test_it_rejects_a_request_with_neither_date_header(storage):
    response = dated_get(storage, {}, storage.date())
    assert "send a Date header" in assert_error(response, 40100001)["detail"]
