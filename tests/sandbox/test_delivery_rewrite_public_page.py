"""The public page's language at the real sandbox edge (cdn/edgerules.md): the rate limit
really paces the answer, the country of the client, `$_IP`, `$_BODY`, `$SET_METHOD`, a rule
that divides by zero, and `$WHEN($ALL(), $EXIT(403))`."""

from __future__ import annotations

import time

import pytest

from tests.sandbox.test_delivery_support import Edge, Storage
from tests.source_address import from_address

KB = 1024


def live(pattern: str, rule: str) -> dict:
    return {"pattern": pattern, "rule": rule, "break": False, "state": "enabled"}


@pytest.fixture
def edge(sandbox):
    storage = Storage(sandbox)
    storage.put("/big.bin", bytes(range(256)) * 800)  # 200 KB
    storage.put("/new/logo.txt", b"new logo")
    storage.put("/ok.txt", b"ok")
    return Edge(sandbox)


def timed_download(edge: Edge, path: str) -> tuple[bytes, float]:
    started = time.monotonic()
    response = edge.get(path, stream=True)
    body = b"".join(response.iter_content(8 * KB))
    return body, time.monotonic() - started


def test_limit_rate_paces_the_answer_after_the_free_part(edge):
    edge.configure(rules=[live(r"\.bin$", "$LIMIT_RATE_AFTER(20, k)$LIMIT_RATE(100, k)")])
    body, seconds = timed_download(edge, "/big.bin")
    assert body == bytes(range(256)) * 800
    # 180 KB after the first 20 KB, at 100 KB/s: 1.8 s.
    assert 1.6 <= seconds <= 3.0, seconds


def test_without_a_limit_the_same_answer_is_fast(edge):
    edge.configure(rules=[live(r"\.txt$", "$LIMIT_RATE(1, k)")])
    body, seconds = timed_download(edge, "/big.bin")
    assert len(body) == 200 * KB
    assert seconds < 1.0, seconds


def test_the_country_of_the_client_address(edge):
    edge.configure(rules=[live("", "$ADD_RSP_HEADER(X-Country, $_GEOIP_COUNTRY_CODE)"
                                   "$ADD_RSP_HEADER(X-Ip, $_IP)")])
    china = from_address("127.0.0.2", edge.url + "/ok.txt")
    assert (china.headers["X-Country"], china.headers["X-Ip"]) == ("CN", "127.0.0.2")
    assert from_address("127.0.0.3", edge.url + "/ok.txt").headers["X-Country"] == "US"
    forwarded = edge.get("/ok.txt", headers={"X-Forwarded-For": "127.0.3.7"})
    assert (forwarded.headers["X-Country"], forwarded.headers["X-Ip"]) == ("GB", "127.0.3.7")
    assert edge.get("/ok.txt").headers["X-Country"] == ""  # 127.0.0.1: no country


def test_a_country_rule_refuses_one_country(edge):
    edge.configure(rules=[live("", "$WHEN($EQ($_GEOIP_COUNTRY_CODE, US))$EXIT(451, no)")])
    assert from_address("127.0.0.3", edge.url + "/ok.txt").status_code == 451
    assert from_address("127.0.0.2", edge.url + "/ok.txt").status_code == 200


def test_an_unknown_country_written_in_the_url_makes_the_rewrite_fail(edge):
    edge.configure(rules=[live(r"^/geo/", "/new/logo-$_GEOIP_COUNTRY_CODE.txt")])
    assert edge.get("/geo/x").status_code == 404  # not rewritten: /geo/x does not exist


def test_body_is_the_first_16_kb(edge):
    edge.configure(rules=[live(r"^/echo$", "$EXIT(200, $LEN($_BODY):$SUB($_BODY, 1, 5))")])
    small = edge.request("POST", "/echo", data=b"hello world")
    assert small.text == "11:hello"
    large = edge.request("POST", "/echo", data=b"x" * (40 * KB))
    assert large.text == f"{16 * KB}:xxxxx"


def test_set_method_head_serves_the_headers_only(edge):
    edge.configure(rules=[live(r"^/new/", "$SET_METHOD(HEAD)")])
    response = edge.get("/new/logo.txt")
    assert (response.status_code, response.content) == (200, b"")
    assert response.headers["Content-Type"].startswith("text/plain")


def test_set_method_get_on_a_request_with_a_body_fails_the_rule(edge):
    # The page's note 1: with a body, only PUT or POST. The rule fails; the edge then answers
    # the POST as it would without the rule (405: a storage domain serves GET and HEAD).
    edge.configure(rules=[live(r"^/new/", "$SET_METHOD(GET)"),
                          live(r"^/new/", "$ADD_RSP_HEADER(X-Later, ran)")])
    response = edge.request("POST", "/new/logo.txt", data=b"a=1")
    assert response.status_code == 405
    assert response.headers["X-Later"] == "ran"
    without_body = edge.request("POST", "/new/logo.txt")
    assert (without_body.status_code, without_body.content) == (200, b"new logo")


def test_a_rule_that_divides_by_zero_fails_and_later_rules_run(edge):
    edge.configure(rules=[live("", "$ADD_RSP_HEADER(X-Ratio, $DIVIDE(100, $_GET_n))"),
                          live("", "$ADD_RSP_HEADER(X-Later, ran)")])
    refused = edge.get("/ok.txt?n=0")
    assert (refused.status_code, refused.headers["X-Later"]) == (200, "ran")
    assert "X-Ratio" not in refused.headers
    assert edge.get("/ok.txt?n=8").headers["X-Ratio"] == "12.5"


def test_when_all_without_arguments_does_not_answer_403(edge):
    edge.configure(rules=[live("", "$WHEN($ALL(), $EXIT(403))")])
    assert edge.get("/ok.txt").status_code == 200
