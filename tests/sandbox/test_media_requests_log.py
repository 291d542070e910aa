"""The control API's media request log: every call, good or refused, with its request id."""

from __future__ import annotations

import json

import pytest

from tests.media_fixtures import MediaLab, session_media


@pytest.fixture
def lab(sandbox, tmp_path_factory) -> MediaLab:
    return MediaLab(sandbox, session_media(tmp_path_factory))


def logged(lab: MediaLab, query: str = "") -> list[dict]:
    response = lab.sandbox.control("GET", f"/media/requests{query}")
    assert response.status_code == 200, response.text
    return response.json()["requests"]


def test_every_call_is_logged_in_order_with_its_request_id_and_outcome(lab):
    playlist = lab.upload_hls()
    good = lab.post("m3u8er/get_meta", {"m3u8": playlist})
    refused = lab.post("snapshot", {"source": "/none.mp4"}, password="wrong")
    entries = logged(lab)
    assert [entry["request_id"] for entry in entries] == [
        good.headers["X-Request-Id"], refused.headers["X-Request-Id"]]
    first, second = entries
    assert (first["endpoint"], first["status_code"], first["message"]) == (
        "m3u8er/get_meta", 200, "ok")
    assert json.loads(first["body"]) == {"m3u8": playlist}
    assert first["service"] == lab.bucket
    assert (second["endpoint"], second["status_code"]) == ("snapshot", 401)
    assert second["message"] == "signature error"
    assert abs(first["received_at"] - lab.sandbox.now()) < 60


def test_the_log_can_be_filtered_by_endpoint(lab):
    lab.post("avmeta/get_meta", {"source": "/a.mp4"})
    lab.post("m3u8er/get_meta", {"m3u8": "/a.m3u8"})
    entries = logged(lab, "?endpoint=avmeta/get_meta")
    assert [entry["endpoint"] for entry in entries] == ["avmeta/get_meta"]
    assert entries[0]["status_code"] == 404


def test_an_unknown_endpoint_filter_is_a_400(lab):
    response = lab.sandbox.control("GET", "/media/requests?endpoint=transcode")
    assert response.status_code == 400
    assert response.json()["field"] == "endpoint"


def test_a_reset_empties_the_log(lab):
    lab.post("m3u8er/get_meta", {"m3u8": "/a.m3u8"})
    lab.sandbox.reset()
    assert logged(lab) == []
