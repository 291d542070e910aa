"""Media processing authentication: the current signature with the body's Content-MD5, a fresh
Date, the account's operator and an existing service (bucket); every failure is a 401 in the
protocol's shape, before any field is looked at."""

from __future__ import annotations

import time
from email.utils import formatdate

import pytest

from tests.media_fixtures import MediaLab, md5_hex, session_media

GET_META = "m3u8er/get_meta"


@pytest.fixture
def lab(sandbox, tmp_path_factory) -> MediaLab:
    lab = MediaLab(sandbox, session_media(tmp_path_factory))
    lab.upload_text(lab.media.hls.playlist.read_text(), body()["m3u8"])  # get_meta needs no more
    return lab


def body() -> dict:
    return {"m3u8": f"{MediaLab.HLS_FOLDER}/index.m3u8"}


def assert_refused(response, words: str) -> None:
    assert response.status_code == 401, response.text
    answer = response.json()
    assert answer["status_code"] == 401
    assert words in answer["message"]
    assert response.headers["X-Request-Id"]


def test_a_correctly_signed_call_is_answered_with_a_request_id(lab):
    response = lab.post(GET_META, body())
    assert response.status_code == 200, response.text
    assert response.json()["status_code"] == 200
    assert len(response.headers["X-Request-Id"]) == 32


def test_it_rejects_a_call_without_authorization(lab):
    assert_refused(lab.post(GET_META, body(), authorization=""), "need authorization")


def test_it_rejects_a_malformed_authorization(lab):
    assert_refused(lab.post(GET_META, body(), authorization="Basic abc"), "SVC <operator>")


def test_it_rejects_a_signature_made_with_the_wrong_password(lab):
    assert_refused(lab.post(GET_META, body(), password="not-the-password"), "signature error")


def test_it_rejects_a_signature_over_another_body(lab):
    """Content-MD5 and the signature agree with each other but not with the body sent."""
    other = md5_hex(b'{"m3u8": "/elsewhere.m3u8"}')
    response = lab.post(GET_META, body(), content_md5=other)
    assert_refused(response, "Content-MD5 does not match the body")


def test_it_rejects_a_signature_that_leaves_out_the_content_md5(lab):
    assert_refused(lab.post(GET_META, body(), signed_md5=""), "signature error")


def test_it_requires_the_content_md5_header(lab):
    assert_refused(lab.post(GET_META, body(), content_md5=""), "Content-MD5 is required")


def test_it_rejects_the_legacy_signature_scheme(lab):
    account = lab.client.account
    data = b'{"m3u8": "/hls/pattern/index.m3u8"}'
    date = account.date()
    uri = f"/{account.bucket}/{GET_META}"
    legacy = md5_hex(f"POST&{uri}&{date}&{len(data)}&{md5_hex(account.password)}")
    response = lab.post(GET_META, raw=data, date=date,
                        authorization=f"SVC {account.operator}:{legacy}")
    assert_refused(response, "signature error")


def test_it_rejects_an_unknown_operator(lab):
    assert_refused(lab.post(GET_META, body(), operator="someone-else"), "user not exists")


def test_it_answers_401_for_a_service_that_does_not_exist(lab):
    assert_refused(lab.post(GET_META, body(), service="no-such-bucket"),
                   "service not exist: no-such-bucket")


def test_it_rejects_a_date_more_than_30_minutes_off_the_sandbox_clock(lab):
    late = lab.client.account.date(offset_s=-31 * 60)
    assert_refused(lab.post(GET_META, body(), date=late), "date offset error")


def test_a_date_within_30_minutes_is_accepted(lab):
    early = lab.client.account.date(offset_s=-29 * 60)
    assert lab.post(GET_META, body(), date=early).status_code == 200


def test_the_date_is_checked_against_the_sandbox_clock_not_the_wall_clock(lab):
    lab.sandbox.advance(3600)
    assert lab.post(GET_META, body()).status_code == 200  # dated by the sandbox clock
    wall = formatdate(time.time(), usegmt=True)
    assert_refused(lab.post(GET_META, body(), date=wall), "date offset error")


def test_it_rejects_a_date_that_is_not_rfc_1123(lab):
    response = lab.post(GET_META, body(), date="yesterday")
    assert_refused(response, "RFC 1123")


def test_authentication_comes_before_the_fields(lab):
    assert_refused(lab.post(GET_META, {"nonsense": 1}, password="wrong"), "signature error")


def test_it_answers_405_for_another_method(lab):
    response = lab.post(GET_META, body(), method="GET")
    assert response.status_code == 405
    assert response.json()["status_code"] == 405


def test_an_unknown_endpoint_is_a_404_in_the_protocols_shape(lab):
    response = lab.post("m3u8er/nothing", body())
    assert response.status_code == 404
    assert "no such endpoint" in response.json()["message"]


# --- X-Date: the provider's JavaScript SDK signs it instead of Date (DECISIONS.md) ---


def test_it_accepts_x_date_in_place_of_date(lab):
    date = lab.client.account.date()
    assert lab.post(GET_META, body(), date=date, dates={"X-Date": date}).status_code == 200


def test_when_both_are_sent_x_date_is_the_one_signed(lab):
    x_date, date = lab.client.account.date(), lab.client.account.date(offset_s=-60)
    both = {"X-Date": x_date, "Date": date}
    assert lab.post(GET_META, body(), date=x_date, dates=both).status_code == 200
    assert_refused(lab.post(GET_META, body(), date=date, dates=both), "signature error")


def test_it_rejects_a_malformed_x_date(lab):
    response = lab.post(GET_META, body(), date="yesterday", dates={"X-Date": "yesterday"})
    assert_refused(response, "X-Date must be an RFC 1123")


@pytest.mark.parametrize("offset", [-31 * 60, 31 * 60])
def test_it_rejects_a_stale_x_date(lab, offset):
    stale = lab.client.account.date(offset_s=offset)
    fresh = lab.client.account.date()
    response = lab.post(GET_META, body(), date=stale, dates={"X-Date": stale, "Date": fresh})
    assert_refused(response, "date offset error: X-Date is")


def test_it_rejects_a_call_with_neither_date_header(lab):
    response = lab.post(GET_META, body(), dates={})
    assert_refused(response, "date offset error: the Date header is missing")
