"""The edge's way to a merchant's own origin, below the HTTP edge: which address answers
(weights, backups), what the origin receives, and how long an answer may be kept. The origins
are real HTTP servers (origin_support.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from sandbox.delivery.freshness import STATIC_SECONDS, cache_seconds
from sandbox.delivery.origin import Balancer, Origin
from sandbox.delivery.upstream import (
    Limits,
    OriginAnswer,
    OriginRequest,
    OriginUnreachable,
    fetch,
    forwarded_headers,
)
from tests.sandbox.origin_support import DOWN_ADDRESS

LIMITS = Limits(connect_timeout_s=2, read_timeout_s=5, max_bytes=1024 * 1024)


def get(target: str, host: str = "shop.example", client_ip: str = "203.0.113.9",
        **headers: str) -> OriginRequest:
    sent = {name.replace("_", "-"): value for name, value in headers.items()}
    return OriginRequest("GET", target, forwarded_headers(sent, host=host, client_ip=client_ip))


def test_weights_share_the_primaries_exactly_by_round_robin():
    light, heavy = Origin("http://a", 1), Origin("http://b", 2)
    balancer = Balancer()
    firsts = [balancer.attempt_order("svc", [light, heavy])[0] for _ in range(300)]
    assert Counter(firsts) == {light: 100, heavy: 200}
    # Smooth: the heavier one never gets three in a row.
    assert all(firsts[i:i + 3] != [heavy] * 3 for i in range(len(firsts) - 2))


def test_backups_come_after_every_primary():
    primary_a, primary_b = Origin("http://a"), Origin("http://b")
    backup = Origin("http://c", backup=True)
    order = Balancer().attempt_order("svc", [backup, primary_a, primary_b])
    assert order[2] == backup and set(order[:2]) == {primary_a, primary_b}


def test_a_changed_origin_list_starts_the_rotation_afresh():
    balancer = Balancer()
    a, b = Origin("http://a"), Origin("http://b")
    assert balancer.attempt_order("svc", [a, b])[0] == a
    assert balancer.attempt_order("svc", [a, b])[0] == b
    c = Origin("http://c")
    assert balancer.attempt_order("svc", [c, a])[0] == c


def test_services_rotate_independently():
    balancer = Balancer()
    a, b = Origin("http://a"), Origin("http://b")
    balancer.attempt_order("one", [a, b])
    assert balancer.attempt_order("two", [a, b])[0] == a


def test_the_origin_gets_the_domain_as_host_and_the_client_address(origin_server):
    origin_server.page("/p.txt", b"hello")
    answer = fetch([Origin(origin_server.address)],
                   get("/p.txt?x=1", X_Forwarded_For="10.0.0.1", Accept_Encoding="gzip",
                       Cookie="a=b"), LIMITS)
    assert (answer.status, answer.body) == (200, b"hello")
    received = origin_server.requests[-1]
    assert received.target == "/p.txt?x=1"
    assert received.headers["Host"] == "shop.example"
    assert received.headers["X-Forwarded-For"] == "10.0.0.1, 203.0.113.9"
    assert received.headers["X-Real-IP"] == "203.0.113.9"
    assert received.headers["Accept-Encoding"] == "identity"
    assert received.headers["Cookie"] == "a=b"


def test_a_post_is_passed_with_its_body(origin_server):
    origin_server.page("/form", b"thanks")
    request = OriginRequest("POST", "/form", forwarded_headers(
        {"Content-Type": "application/x-www-form-urlencoded"}, host="h", client_ip="1.2.3.4"),
        b"a=1")
    assert fetch([Origin(origin_server.address)], request, LIMITS).body == b"thanks"
    received = origin_server.requests[-1]
    assert (received.method, received.body) == ("POST", b"a=1")


def test_a_refused_primary_fails_over_to_the_backup(origin_server):
    origin_server.page("/p.txt", b"from the backup")
    order = [Origin(DOWN_ADDRESS), Origin(origin_server.address, backup=True)]
    answer = fetch(order, get("/p.txt"), LIMITS)
    assert (answer.address, answer.body) == (origin_server.address, b"from the backup")


def test_a_5xx_fails_over_and_a_4xx_does_not(origin_servers):
    broken, healthy = origin_servers(), origin_servers()
    broken.fail_with(503)
    healthy.page("/p.txt", b"ok")
    order = [Origin(broken.address), Origin(healthy.address)]
    assert fetch(order, get("/p.txt"), LIMITS).body == b"ok"
    assert fetch(order, get("/missing"), LIMITS).status == 404
    assert healthy.hits("/missing") == 1 and broken.hits("/missing") == 1


def test_when_every_address_fails_the_last_5xx_is_passed_on(origin_server):
    origin_server.fail_with(500)
    answer = fetch([Origin(DOWN_ADDRESS), Origin(origin_server.address)], get("/p"), LIMITS)
    assert answer.status == 500


def test_no_answer_at_all_names_every_address():
    with pytest.raises(OriginUnreachable) as caught:
        fetch([Origin(DOWN_ADDRESS), Origin("ftp://nowhere")], get("/p"), LIMITS)
    assert [failure.address for failure in caught.value.failures] == [DOWN_ADDRESS,
                                                                      "ftp://nowhere"]


def test_an_answer_over_the_limit_is_a_failure(origin_server):
    origin_server.page("/big", b"x" * 2048)
    with pytest.raises(OriginUnreachable, match="2048 bytes"):
        fetch([Origin(origin_server.address)], get("/big"),
              Limits(connect_timeout_s=2, read_timeout_s=5, max_bytes=1024))


def answer(status=200, **headers):
    return OriginAnswer("http://o", status, tuple((name.replace("_", "-"), value)
                                                  for name, value in headers.items()), b"")


@pytest.mark.parametrize(("given", "path", "seconds"), [
    (answer(Content_Type="text/css"), "/a", STATIC_SECONDS),
    (answer(), "/a.png", STATIC_SECONDS),
    (answer(Content_Type="text/html"), "/a.png", 0),  # the type wins over the extension
    (answer(Content_Type="text/html"), "/", 0),
    (answer(Content_Type="text/html", Cache_Control="public, max-age=60"), "/", 60),
    (answer(Cache_Control="max-age=60, s-maxage=30"), "/", 30),
    (answer(Content_Type="text/css", Cache_Control="no-cache"), "/a.css", 0),
    (answer(Content_Type="text/css", Cache_Control="private, max-age=60"), "/a.css", 0),
    (answer(Content_Type="text/css", Set_Cookie="a=b"), "/a.css", 0),
    (answer(Expires="Thu, 01 Jan 2037 00:01:40 GMT", Date="Thu, 01 Jan 2037 00:00:00 GMT"),
     "/", 100),
    (answer(Expires="0", Content_Type="text/css"), "/a.css", 0),
    (answer(301, Location="/b"), "/a", 7200),
    (answer(302, Location="/b"), "/a", 1200),
    (answer(404, Content_Type="text/css"), "/a.css", 0),
    (answer(500, Cache_Control="max-age=60"), "/", 0),
])
def test_how_long_an_origin_answer_is_kept(given, path, seconds):
    assert cache_seconds(given, path, now=0) == seconds
