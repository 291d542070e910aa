"""The back-office's media client against the real sandbox, where its options change the wire."""

from __future__ import annotations

import time

import pytest
import requests
from requests.structures import CaseInsensitiveDict

from media.client import MediaClient, MediaUnauthorized
from tests.media_fixtures import MediaLab

Sent = list[CaseInsensitiveDict[str]]


def client_for(lab: MediaLab, sent: Sent, **options: object) -> MediaClient:
    """The back-office client on the lab's sandbox, keeping the headers of every request."""
    session = requests.Session()
    session.hooks["response"].append(lambda response, **_: sent.append(response.request.headers))
    info = lab.sandbox.info
    return MediaClient(info["process_url"], info["storage"]["bucket"],
                       info["storage"]["operator"], info["storage"]["password"],
                       session=session, **options)  # type: ignore[arg-type]


def test_the_client_can_sign_with_x_date_instead_of_date(lab):
    sent: Sent = []
    client = client_for(lab, sent, date_header="X-Date")
    meta = client.m3u8_meta(f"{lab.HLS_FOLDER}/index.m3u8")
    assert meta.duration > 0
    assert client.av_meta(lab.VIDEO).streams
    assert len(sent) == 2
    assert all("X-Date" in headers and "Date" not in headers for headers in sent)


def test_a_stale_x_date_is_refused_like_a_stale_date(lab):
    sent: Sent = []
    client = client_for(lab, sent, date_header="X-Date", clock=lambda: time.time() - 3600)
    with pytest.raises(MediaUnauthorized, match="date offset error: X-Date"):
        client.m3u8_meta(f"{lab.HLS_FOLDER}/index.m3u8")


def test_the_client_reads_the_sandboxs_documented_ok_answers(lab):
    """cloud/sync_video.md: a success says `"message": "ok"`; the client keeps it as it came."""
    client = client_for(lab, [])
    meta = client.m3u8_meta(f"{lab.HLS_FOLDER}/index.m3u8")
    snapshot = client.snapshot(lab.VIDEO, "/snaps/ok.jpg", "00:00:01")
    assert (meta.status_code, meta.message) == (200, "ok")
    assert (snapshot.status_code, snapshot.message) == (200, "ok")
    assert snapshot.save_as == "/snaps/ok.jpg"
