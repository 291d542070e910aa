"""The security sections of an own-origin domain at the sandbox edge, set through the console
API: the WAF refuses a signature while the same request without it passes, a body over the
size limit gets 413 from its headers alone (the body never sent), and the IP access limit
bans or delays the request after the count, until the sandbox clock moves past the window or
the ban. A storage domain is refused these sections."""

from __future__ import annotations

import socket
import time
from typing import Any

import pytest
import requests

from tests.sandbox.origin_support import OwnOriginConsole, origin
from tests.sandbox.test_delivery_support import Edge, assert_refused

DOMAIN = "shop.sandbox.localhost"
HOST = {"Host": DOMAIN}
STORAGE_DOMAIN = "demo-bucket.sandbox.localhost"  # the demo bucket's domain
WAF_DENIED = "40310030"
IP_LIMIT_BANNED = "40310031"
BODY_TOO_LARGE = "41300001"


@pytest.fixture
def console(sandbox):
    return OwnOriginConsole(sandbox)


@pytest.fixture
def edge(sandbox):
    return Edge(sandbox)


@pytest.fixture
def site(console, origin_server):
    for path in ("/a.css", "/search", "/login", "/api/x", "/form"):
        origin_server.page(path, b"ok", content_type="text/plain")
    console.create("shop-cdn", DOMAIN, [origin(origin_server.address)])
    return origin_server


def put(console: OwnOriginConsole, section: str, value: Any,
        domain: str = DOMAIN) -> requests.Response:
    return console.call("PUT", "/buckets/domains/config",
                        {"domain": domain, "section": section, "value": value})


def get(edge, path, **headers):
    return edge.get(path, headers={**HOST, **headers})


def test_the_waf_refuses_a_signature_and_passes_the_same_request_without_it(
        console, edge, site):
    assert get(edge, "/search?q=1' or '1'='1").status_code == 200  # WAF off
    assert put(console, "waf", {"enabled": True}).json()["value"] == {"enabled": True}
    body = assert_refused(get(edge, "/search?q=1' or '1'='1"), 403, WAF_DENIED)
    assert "sqli" in body["msg"]
    assert get(edge, "/search?q=select a colour").status_code == 200
    assert get(edge, "/search?name=O'Brien").status_code == 200
    assert_refused(get(edge, "/a.css", **{"User-Agent": "sqlmap/1.7"}), 403, WAF_DENIED)
    assert get(edge, "/a.css", **{"User-Agent": "Mozilla/5.0"}).status_code == 200


def test_the_waf_reads_a_form_body_and_a_twice_encoded_query(console, edge, site):
    put(console, "waf", {"enabled": True})
    form = {**HOST, "Content-Type": "application/x-www-form-urlencoded"}
    refused = edge.request("POST", "/form", data=b"c=%3Cscript%3Ealert(1)%3C/script%3E",
                           headers=form)
    assert "xss" in assert_refused(refused, 403, WAF_DENIED)["msg"]
    assert edge.request("POST", "/form", data=b"c=a+nice+colour", headers=form).status_code \
        == 200
    assert_refused(get(edge, "/search?q=%253Cscript%253E"), 403, WAF_DENIED)


def test_the_security_sections_are_refused_for_a_storage_domain(sandbox, console, site):
    response = put(console, "waf", {"enabled": True}, domain=STORAGE_DOMAIN)
    assert response.status_code == 400, response.text
    assert "own origin" in response.text
    shown = console.call("GET", f"/buckets/domains/config?domain={STORAGE_DOMAIN}").json()
    assert not {"waf", "body_limit", "ip_limits"} & set(shown["sections"])
    mine = console.call("GET", f"/buckets/domains/config?domain={DOMAIN}").json()
    assert mine["sections"]["body_limit"] == {"max_mb": 512}


def test_bad_section_values_name_the_field(console, site):
    answer = put(console, "ip_limits", [{"pattern": "/a", "count": 10, "action": "ban",
                                         "seconds": 30}])
    assert answer.status_code == 400 and "ip_limits[0].seconds" in answer.text
    answer = put(console, "ip_limits", [{"pattern": "a*", "count": 10, "action": "delay",
                                         "seconds": 2}])
    assert answer.status_code == 400 and "ip_limits[0].pattern" in answer.text
    answer = put(console, "body_limit", {"max_mb": 0})
    assert answer.status_code == 400 and "max_body_mb" in answer.text


def raw_request(edge: Edge, head: str, body: bytes) -> tuple[bytes, float]:
    """Send `head` and `body` over a socket and read the answer; the seconds it took."""
    address = edge.url.split("://", 1)[1].rstrip("/")
    host, port = address.rsplit(":", 1)
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(head.encode() + body)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = conn.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer, time.monotonic() - started


def test_an_oversized_body_gets_413_from_its_headers_alone(console, edge, site):
    put(console, "body_limit", {"max_mb": 1})
    head = (f"POST /form HTTP/1.1\r\nHost: {DOMAIN}\r\nContent-Length: {2 * 1024 * 1024}\r\n"
            "Content-Type: application/octet-stream\r\n\r\n")
    answer, seconds = raw_request(edge, head, b"only a few bytes")
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert BODY_TOO_LARGE.encode() in answer
    assert b"connection: close" in answer.lower()
    assert seconds < 5
    assert site.hits("/form") == 0


def test_a_client_that_waits_for_100_continue_gets_the_413_instead(console, edge, site):
    put(console, "body_limit", {"max_mb": 1})
    head = (f"PUT /form HTTP/1.1\r\nHost: {DOMAIN}\r\nContent-Length: {5 * 1024 * 1024}\r\n"
            "Expect: 100-continue\r\n\r\n")
    answer, seconds = raw_request(edge, head, b"")
    assert answer.startswith(b"HTTP/1.1 413") and seconds < 5, answer[:200]


def test_the_default_limit_is_512_mb(console, edge, site):
    head = (f"POST /form HTTP/1.1\r\nHost: {DOMAIN}\r\nContent-Length: {513 * 1024 * 1024}\r\n"
            "\r\n")
    answer, seconds = raw_request(edge, head, b"x")
    assert answer.startswith(b"HTTP/1.1 413") and seconds < 5, answer[:200]
    small = edge.request("POST", "/form", data=b"x" * 1000, headers=HOST)
    assert small.status_code == 200


def test_a_chunked_body_is_cut_at_the_limit(console, edge, site):
    put(console, "body_limit", {"max_mb": 1})
    chunk = b"x" * 65536
    head = f"POST /form HTTP/1.1\r\nHost: {DOMAIN}\r\nTransfer-Encoding: chunked\r\n\r\n"
    body = b"".join(b"10000\r\n" + chunk + b"\r\n" for _ in range(20))  # 1.25 MB, unfinished
    answer, _seconds = raw_request(edge, head, body)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_the_eleventh_request_in_a_window_is_banned_until_the_ban_ends(
        sandbox, console, edge, site):
    put(console, "ip_limits", [{"pattern": "/login*", "count": 10, "action": "ban",
                                "seconds": 120}])
    client = {"X-Forwarded-For": "198.51.100.7"}
    assert [get(edge, "/login", **client).status_code for _ in range(10)] == [200] * 10
    assert_refused(get(edge, "/login?x=1", **client), 403, IP_LIMIT_BANNED)
    assert get(edge, "/a.css", **client).status_code == 200  # another path: not limited
    assert get(edge, "/login", **{"X-Forwarded-For": "198.51.100.8"}).status_code == 200
    sandbox.advance(61)  # the window is over, the ban is not
    assert_refused(get(edge, "/login", **client), 403, IP_LIMIT_BANNED)
    sandbox.advance(60)
    assert get(edge, "/login", **client).status_code == 200


def test_the_eleventh_request_in_a_window_is_delayed(sandbox, console, edge, site):
    put(console, "ip_limits", [{"pattern": "/api/*", "count": 10, "action": "delay",
                                "seconds": 2}])
    client = {"X-Forwarded-For": "198.51.100.9"}
    for _ in range(10):
        assert get(edge, "/api/x", **client).status_code == 200
    started = time.monotonic()
    assert get(edge, "/api/x", **client).status_code == 200
    assert time.monotonic() - started >= 2
    sandbox.advance(60)
    started = time.monotonic()
    assert get(edge, "/api/x", **client).status_code == 200
    assert time.monotonic() - started < 1.5
