"""Error mapping, date-offset correction and backoff of StorageClient.

D='Wed, 29 Oct 2014 02:26:58 GMT', D2='Wed, 29 Oct 2014 03:26:58 GMT' (an hour later) and
PW=$(printf '%s' password | md5sum); signatures come from
    printf '%s' "<METHOD>&<URI>&<DATE>" | openssl dgst -sha1 -hmac "$PW" -binary | base64
"""

import io
import pickle

import pytest
import requests
import responses

from storage.client import (
    ERRNO,
    AuthenticationError,
    AuthorizationRequired,
    BadContentMD5,
    BadRequest,
    BucketNotFound,
    CopyError,
    CopyOtherBucket,
    CopySameKey,
    CopySourceInvalid,
    DateInvalid,
    DateMissing,
    DateOffset,
    DirectoryNotEmpty,
    DuplicatePart,
    FileMD5Mismatch,
    FolderExists,
    Forbidden,
    InvalidSecret,
    InvalidTTL,
    MetadataDirectiveInvalid,
    MetadataRequired,
    MultipartCompleted,
    MultipartError,
    MultipartIncomplete,
    MultipartNotFound,
    MultipartPartIdInvalid,
    MultipartUUIDInvalid,
    NotAnImage,
    NotFound,
    PartAlreadyComplete,
    PartIdError,
    PasswordError,
    PathConflict,
    PreprocessingError,
    RetryPolicy,
    ServerError,
    ServiceUnavailable,
    SignatureError,
    StorageClient,
    StorageConnectionError,
    StorageError,
    TooManyRequests,
    UserNotFound,
)

BASE = "http://storage.test:8103"
URL = f"{BASE}/demo/photos/cat.jpg"
NOW = 1414549618.0
DATE = "Wed, 29 Oct 2014 02:26:58 GMT"
LATER = "Wed, 29 Oct 2014 03:26:58 GMT"
GET_SIGNATURE = "SVC ops:47aIR4xkTwhHRK9VsBRJq0dPD3g="  # "GET&/demo/photos/cat.jpg&$D"
GET_SIGNATURE_LATER = "SVC ops:BwaP+pUpodcksNvXp4P3VmifbUM="  # "GET&/demo/photos/cat.jpg&$D2"

# DECISIONS' code list, written out here independently of the client's table.
SPEC_CODES = [
    (40001001, 400, BadContentMD5),
    (40001023, 400, MultipartUUIDInvalid),
    (40001030, 400, MultipartPartIdInvalid),
    (40001035, 400, MultipartNotFound),
    (40001036, 400, MultipartCompleted),
    (40001037, 400, MultipartIncomplete),
    (40011060, 400, FileMD5Mismatch),
    (40011061, 400, PartIdError),
    (40100002, 401, DateOffset),
    (40100004, 401, AuthorizationRequired),
    (40100005, 401, SignatureError),
    (40100006, 401, UserNotFound),
    (40100012, 401, BucketNotFound),
    (40300005, 403, DirectoryNotEmpty),
    (40300016, 403, InvalidSecret),
    (40400001, 404, NotFound),
    (40600002, 406, FolderExists),
    (42900002, 429, TooManyRequests),
    (50300001, 503, ServiceUnavailable),
    (40001031, 400, DuplicatePart),
    (40011062, 400, PartAlreadyComplete),
    (40000040, 400, CopyOtherBucket),
    (40000041, 400, CopySameKey),
    (40000042, 400, CopySourceInvalid),
    (40000043, 400, MetadataDirectiveInvalid),
    (40000044, 400, MetadataRequired),
    (40011092, 400, InvalidTTL),
    (40100001, 401, DateMissing),
    (40100016, 401, DateInvalid),
    (40100009, 401, PasswordError),
    (40300018, 403, NotAnImage),
    (40600001, 406, PathConflict),
    (40000000, 400, BadRequest),
    (40011001, 400, PreprocessingError),
    (40300004, 403, Forbidden),
    (40100013, 401, AuthenticationError),
    (42900005, 429, TooManyRequests),
    (50300044, 503, ServiceUnavailable),
]


@pytest.fixture
def mock():
    with responses.RequestsMock() as rsps:
        yield rsps


@pytest.fixture
def sleeps():
    return []


@pytest.fixture
def client(sleeps):
    return StorageClient(
        BASE,
        "demo",
        "ops",
        "password",
        clock=lambda: NOW,
        retry=RetryPolicy(attempts=4, initial_wait=0.5, max_wait=8.0, sleep=sleeps.append),
    )


def error_json(code, msg="refused", request_id="req-1"):
    return {"msg": msg, "code": code, "id": request_id}


# --- mapping ---


@pytest.mark.parametrize(("code", "status", "cls"), SPEC_CODES)
def test_each_documented_code_becomes_its_typed_error(mock, client, code, status, cls):
    mock.post(f"{BASE}/demo/photos", status=status, json=error_json(code, "the message", "id-9"))
    with pytest.raises(cls) as caught:
        client.create_folder("photos")  # POST: never repeated, so one answer is enough
    error = caught.value
    assert type(error) is cls
    assert (error.code, error.msg, error.request_id, error.status) == (
        code,
        "the message",
        "id-9",
        status,
    )
    assert isinstance(error, StorageError)


def test_every_code_of_the_error_table_has_a_class_of_its_status_and_a_message():
    """api/errno.md has 258 rows; each one is typed, and its class agrees with its status."""
    assert len(ERRNO) == 258
    by_status = {400: (BadRequest, MultipartError, CopyError, PreprocessingError, StorageError),
                 401: (AuthenticationError,), 404: (NotFound,), 429: (TooManyRequests,),
                 503: (ServerError,)}
    for code, (cls, message) in ERRNO.items():
        assert issubclass(cls, by_status.get(code // 100000, (StorageError,))), code
        assert str(message), code
    assert ERRNO[40011061][1] == "part id error"


def test_the_table_message_is_shown_in_chinese():
    from django.utils import translation
    from django.utils.translation import gettext

    from storage.client import table_message
    from storage.texts import error_text

    with translation.override("zh-hans"):
        assert gettext(table_message(40000041) or "") == "源路径与目标路径相同"
        error = StorageError("storage bad request", code=40000000, request_id="r", detail="why")
        assert error_text(error) == "服务商拒绝：存储请求错误：why（错误码 40000000，请求 r）。"
    assert table_message(49999999) is None


def test_the_detail_of_an_answer_is_kept(mock, client):
    mock.post(f"{BASE}/demo/photos", status=400,
              json={**error_json(40000000, "storage bad request"), "detail": "why"})
    with pytest.raises(BadRequest) as caught:
        client.create_folder("photos")
    assert caught.value.detail == "why"


def test_error_families_can_be_caught_together():
    assert issubclass(SignatureError, AuthenticationError)
    assert issubclass(CopySameKey, CopyError)
    assert issubclass(PartAlreadyComplete, PartIdError)
    assert issubclass(NotAnImage, PreprocessingError)
    assert issubclass(DateOffset, AuthenticationError)
    assert issubclass(PartIdError, MultipartError)
    assert issubclass(ServiceUnavailable, ServerError)


def test_a_code_given_as_text_is_understood(mock, client):
    mock.post(f"{BASE}/demo/photos", status=406, json=error_json("40600002"))
    with pytest.raises(FolderExists):
        client.create_folder("photos")


@pytest.mark.parametrize(
    ("status", "cls"),
    [(401, AuthenticationError), (404, NotFound), (400, BadRequest), (403, Forbidden),
     (406, StorageError), (502, ServerError)],
)
def test_an_unknown_code_falls_back_on_the_http_status(mock, client, status, cls):
    mock.post(f"{BASE}/demo/photos", status=status, json=error_json(49999999))
    with pytest.raises(cls) as caught:
        client.create_folder("photos")
    assert type(caught.value) is cls
    assert caught.value.code == 49999999


def test_a_head_404_without_body_is_not_found(mock, client):
    mock.head(URL, status=404)
    with pytest.raises(NotFound) as caught:
        client.head("photos/cat.jpg")
    assert caught.value.code is None
    assert caught.value.status == 404


def test_a_head_error_may_carry_its_code_in_a_header(mock, client):
    mock.head(URL, status=401, headers={"X-Error-Code": "40100005"})
    with pytest.raises(SignatureError):
        client.head("photos/cat.jpg")


def test_a_non_json_error_page_keeps_the_status(mock, client):
    mock.post(f"{BASE}/demo/photos", status=403, body="<html>forbidden</html>")
    with pytest.raises(StorageError) as caught:
        client.create_folder("photos")
    assert (caught.value.status, caught.value.code) == (403, None)


def test_part_id_error_exposes_the_expected_part(mock, client):
    mock.put(
        URL,
        status=400,
        json=error_json(40011061, "part id error"),
        headers={"x-svc-next-part-id": "3"},
    )
    with pytest.raises(PartIdError) as caught:
        client.send("PUT", "photos/cat.jpg", body=b"x", idempotent=False)
    assert caught.value.next_part_id == 3


def test_errors_survive_pickling_for_task_queues(mock, client):
    mock.post(f"{BASE}/demo/photos", status=406, json=error_json(40600002, "exists", "r-7"))
    with pytest.raises(FolderExists) as caught:
        client.create_folder("photos")
    copy = pickle.loads(pickle.dumps(caught.value))
    assert type(copy) is FolderExists
    assert (copy.code, copy.msg, copy.request_id, copy.status) == (40600002, "exists", "r-7", 406)


# --- date offset ---


def test_a_date_offset_answer_is_corrected_from_the_server_date_and_repeated(mock, client):
    mock.get(
        URL, status=401, json=error_json(40100002, "date offset error"), headers={"Date": LATER}
    )
    mock.get(URL, body=b"data")
    client.download("photos/cat.jpg", io.BytesIO())
    first, second = (call.request for call in mock.calls)
    assert (first.headers["Date"], first.headers["Authorization"]) == (DATE, GET_SIGNATURE)
    assert (second.headers["Date"], second.headers["Authorization"]) == (
        LATER,
        GET_SIGNATURE_LATER,
    )
    assert client.clock_offset == 3600


def test_the_learnt_offset_is_kept_for_later_calls(mock, client):
    mock.get(URL, status=401, json=error_json(40100002), headers={"Date": LATER})
    mock.get(URL, body=b"a")
    mock.get(URL, body=b"b")
    client.download("photos/cat.jpg", io.BytesIO())
    client.download("photos/cat.jpg", io.BytesIO())
    assert len(mock.calls) == 3
    assert mock.calls[2].request.headers["Date"] == LATER


def test_a_date_offset_is_corrected_only_once(mock, client):
    mock.get(URL, status=401, json=error_json(40100002), headers={"Date": LATER})
    mock.get(URL, status=401, json=error_json(40100002), headers={"Date": LATER})
    with pytest.raises(DateOffset):
        client.download("photos/cat.jpg", io.BytesIO())
    assert len(mock.calls) == 2


def test_a_date_offset_without_a_server_date_is_raised(mock, client):
    mock.get(URL, status=401, json=error_json(40100002))
    with pytest.raises(DateOffset):
        client.download("photos/cat.jpg", io.BytesIO())
    assert len(mock.calls) == 1
    assert client.clock_offset == 0


def test_a_date_offset_on_a_post_is_repeated_too(mock, client):
    url = f"{BASE}/demo/photos"
    mock.post(url, status=401, json=error_json(40100002), headers={"Date": LATER})
    mock.post(url, status=200)
    client.create_folder("photos")
    assert mock.calls[1].request.headers["Date"] == LATER


def test_a_date_offset_upload_resends_the_whole_body(mock, client):
    bodies = []

    def answer(request):
        bodies.append(request.body)
        if len(bodies) == 1:
            return 401, {"Date": LATER}, '{"msg":"date offset","code":40100002,"id":"x"}'
        return 200, {}, ""

    mock.add_callback(responses.PUT, URL, callback=answer)
    client.upload("photos/cat.jpg", io.BytesIO(b"hello world"))
    assert bodies == [b"hello world", b"hello world"]


# --- backoff ---


def test_idempotent_calls_back_off_on_5xx_then_succeed(mock, client, sleeps):
    mock.get(URL, status=503, json=error_json(50300001))
    mock.get(URL, status=500, body="oops")
    mock.get(URL, body=b"ok")
    target = io.BytesIO()
    client.download("photos/cat.jpg", target)
    assert target.getvalue() == b"ok"
    assert sleeps == [0.5, 1.0]


def test_backoff_is_bounded(mock, client, sleeps):
    for _ in range(4):
        mock.delete(URL, status=503, json=error_json(50300001))
    with pytest.raises(ServiceUnavailable):
        client.delete("photos/cat.jpg")
    assert len(mock.calls) == 4
    assert sleeps == [0.5, 1.0, 2.0]


def test_backoff_waits_are_capped(mock, sleeps):
    client = StorageClient(
        BASE,
        "demo",
        "ops",
        "password",
        retry=RetryPolicy(attempts=6, initial_wait=1.0, max_wait=4.0, sleep=sleeps.append),
    )
    for _ in range(6):
        mock.head(URL, status=500)
    with pytest.raises(ServerError):
        client.head("photos/cat.jpg")
    assert sleeps == [1.0, 2.0, 4.0, 4.0, 4.0]


def test_429_is_retried_on_delete(mock, client, sleeps):
    mock.delete(URL, status=429, json=error_json(42900002, "too many requests"))
    mock.delete(URL, status=200)
    client.delete("photos/cat.jpg")
    assert len(mock.calls) == 2 and sleeps == [0.5]


def test_a_whole_file_put_is_retried_with_the_whole_body(mock, client):
    bodies = []

    def answer(request):
        bodies.append(request.body)
        return (503, {}, "") if len(bodies) < 3 else (200, {}, "")

    mock.add_callback(responses.PUT, URL, callback=answer)
    client.upload("photos/cat.jpg", io.BytesIO(b"hello world"))
    assert bodies == [b"hello world"] * 3


def test_network_failures_are_retried_then_reported(mock, client, sleeps):
    for _ in range(4):
        mock.get(URL, body=requests.ConnectionError("connection refused"))
    with pytest.raises(StorageConnectionError, match="connection refused"):
        client.download("photos/cat.jpg", io.BytesIO())
    assert len(mock.calls) == 4 and len(sleeps) == 3


def test_a_timeout_is_retried(mock, client):
    mock.head(URL, body=requests.ReadTimeout("slow"))
    mock.head(URL, headers={"x-svc-file-type": "file"})
    assert client.head("photos/cat.jpg").type == "file"


def test_post_is_never_retried(mock, client, sleeps):
    mock.post(f"{BASE}/demo/photos", status=503, json=error_json(50300001))
    with pytest.raises(ServiceUnavailable):
        client.create_folder("photos")
    assert len(mock.calls) == 1 and sleeps == []


def test_patch_is_never_retried(mock, client, sleeps):
    mock.patch(f"{URL}?metadata=merge", status=500)
    with pytest.raises(ServerError):
        client.patch_metadata("photos/cat.jpg", {"a": "1"})
    assert len(mock.calls) == 1 and sleeps == []


def test_client_errors_are_not_retried(mock, client, sleeps):
    mock.get(URL, status=404, json=error_json(40400001, "file or directory not found"))
    with pytest.raises(NotFound):
        client.download("photos/cat.jpg", io.BytesIO())
    assert len(mock.calls) == 1 and sleeps == []


def test_a_plain_upload_refused_as_a_bad_request_gets_the_overwrite_hint():
    """The provider's table has no row for "a file written in parts cannot be overwritten"."""
    from storage.services.uploads import _overwrite_hint

    assert "delete it first" in _overwrite_hint(
        BadRequest("storage bad request", code=40000000, status=400))
    assert _overwrite_hint(InvalidSecret("x", code=40300016, status=403)) == ""
    assert _overwrite_hint(MultipartNotFound("x", code=40001035, status=400)) == ""


def test_a_refusal_in_other_words_than_the_tables_keeps_the_providers_words():
    from django.utils import translation

    from storage.texts import error_text

    error = BadRequest("refused for a reason of its own", code=40000000, request_id="r")
    with translation.override("zh-hans"):
        assert "refused for a reason of its own" in error_text(error)
