"""The client corrects its clock from an uncoded 401 answer to a HEAD (a HEAD answer has no
body, so the 40100002 code of a date-offset refusal cannot be read)."""

from __future__ import annotations

from email.utils import formatdate

import pytest
import responses

from storage.client import AuthenticationError, StorageClient


@responses.activate
def test_an_uncoded_401_to_a_head_with_a_far_server_date_corrects_the_clock():
    """A HEAD refusal has no body, so its 40100002 code cannot be read; the answer's Date
    (here two hours ahead) shows the clock is off. (A reply the sandbox cannot produce: its
    Date header follows the real clock, not its movable one.)"""
    server_now = 1_700_000_000.0
    url = "http://storage.test/demo/a.txt"
    responses.add(responses.HEAD, url, status=401,
                  headers={"Date": formatdate(server_now, usegmt=True)})
    responses.add(responses.HEAD, url, status=200, headers={
        "x-svc-file-type": "file", "x-svc-file-size": "3", "Date": formatdate(server_now,
                                                                              usegmt=True)})
    client = StorageClient("http://storage.test", "demo", "op", "pw",
                           clock=lambda: server_now - 7200)
    assert client.head("/a.txt").size == 3
    assert client.clock_offset == pytest.approx(7200, abs=1)


@responses.activate
def test_an_uncoded_401_with_a_matching_server_date_is_a_plain_refusal():
    now = 1_700_000_000.0
    url = "http://storage.test/demo/a.txt"
    responses.add(responses.HEAD, url, status=401, headers={"Date": formatdate(now, usegmt=True)})
    client = StorageClient("http://storage.test", "demo", "op", "pw", clock=lambda: now)
    with pytest.raises(AuthenticationError):
        client.head("/a.txt")
    assert len(responses.calls) == 1
