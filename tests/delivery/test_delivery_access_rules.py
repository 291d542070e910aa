"""The back-office's own rules of the Access panels (`delivery.access_rules`): country codes
with line numbers, the auth URL's checks, and region verdicts that agree with the real sandbox
edge on a table of cases (the "why was I refused" tester will rely on them)."""

from __future__ import annotations

from typing import Any

import pytest

from delivery import access_rules
from tests.delivery.conftest import Edge
from tests.source_address import from_address

# The sandbox's test networks (sandbox/delivery/geo.py), as a client address and its country.
CLIENTS = {"127.0.0.1": None, "127.0.0.2": "CN", "127.0.0.3": "US", "127.0.0.4": "JP"}


def test_codes_are_read_one_a_line_and_unknown_ones_named_by_line() -> None:
    assert access_rules.parse_regions("cn\n\nUS, jp\nCN\n") == (["CN", "US", "JP"], [])
    codes, problems = access_rules.parse_regions("CN\nXX\nus zz")
    assert codes == ["CN", "US"]
    assert [(p.line, p.text) for p in problems] == [(2, "XX"), (3, "zz")]


def test_every_code_has_a_name_in_english_and_chinese() -> None:
    assert access_rules.country_name("CN") == "China"
    assert access_rules.country_name("JP", "zh_CN") == "日本"
    assert len(access_rules.countries()) == len(access_rules.country_codes()) > 240


@pytest.mark.parametrize(("url", "problem"), [
    ("https://shop.example.com/auth?x=1", None), ("http://127.0.0.1:8080/a", None),
    ("ftp://shop.example.com/", "scheme"), ("shop.example.com/auth", "scheme"),
    ("http:///auth", "host"), ("http://shop.example.com/a b", "spaces"),
    ("http://a.example.com/" + "x" * 1100, "length"),
])
def test_auth_urls_are_http_or_https_with_a_host(url: str, problem: str | None) -> None:
    assert access_rules.auth_url_problem(url) == problem


def test_the_auth_request_carries_the_client_request_in_x_svc_headers() -> None:
    headers = access_rules.auth_request_headers(
        "/a.jpg?x=1", "GET", "cdn.example.com", "203.0.113.7",
        {"User-Agent": "ShopApp", "Host": "cdn.example.com", "Connection": "close"})
    assert headers == {"X-Svc-Uri": "/a.jpg?x=1", "X-Svc-Method": "GET",
                       "X-Svc-Host": "cdn.example.com", "X-Svc-Client-Ip": "203.0.113.7",
                       "X-Svc-Header-User-Agent": "ShopApp"}


@pytest.mark.django_db
@pytest.mark.parametrize(("mode", "regions"), [
    ("block", ["CN"]), ("block", ["CN", "US"]), ("allow", ["US", "JP"]), ("allow", ["CN"]),
    ("off", ["CN"]),
])
def test_region_verdicts_agree_with_the_sandbox_edge(edge: Edge, publish: Any, mode: str,
                                                     regions: list[str]) -> None:
    edge.upload("/r.txt", b"r", content_type="text/plain")
    publish(region_mode=mode, regions="\n".join(regions))
    for address, country in CLIENTS.items():
        answer = from_address(address, edge.base_url + "/r.txt")
        refused = access_rules.region_refuses(mode, regions, country)
        assert (answer.status_code == 403) == refused, (mode, regions, address)
        assert answer.status_code in (200, 403)
