"""The back-office's pure pieces of the security page, without the edge: the WAF matcher's
verdicts on both sides of each signature (attacks caught, ordinary requests let through), and
the IP access limit rule lines read into the console's section or refused line by line."""

from __future__ import annotations

import pytest

from delivery.services.security import LimitRule, LimitRulesError, parse_limit_rules
from delivery.waf import waf_verdict


@pytest.mark.parametrize(("query", "kind"), [
    ("q=select+a+colour", None),
    ("name=O%27Brien", None),
    ("q=union+station+select+menu", None),
    ("q=1+or+2=3", None),
    ("next=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1", None),
    ("q=%3Cb%3Ebold%3C%2Fb%3E", None),
    ("id=1%27%20OR%20%27a%27=%27a", "sqli"),
    ("id=1+UnIoN+SeLeCt+1", "sqli"),
    ("id=1%2527--", "sqli"),
    ("x=%3CScRiPt%3E", "xss"),
    ("x=%253Csvg%2Fonload%3Dalert(1)%253E", "xss"),
    ("inc=data://text/plain;base64,PD9waHA=", "rfi"),
    ("f=..%5C..%5Cboot.ini", "traversal"),
])
def test_the_matcher_reads_the_query_decoded_once_and_twice(query: str,
                                                            kind: str | None) -> None:
    assert waf_verdict("/p", query, "", "Mozilla/5.0") == kind


def test_a_scanner_is_known_by_its_user_agent_whatever_the_case() -> None:
    assert waf_verdict("/", "", "", "Mozilla/5.0 (compatible; ACUNETIX)") == "scanner"
    assert waf_verdict("/", "", "", "curl/8.5.0") is None


def test_a_cross_site_origin_only_matters_for_a_state_changing_request() -> None:
    assert waf_verdict("/", "", "a=1", "x", method="POST", origin="https://evil.example",
                       host="shop.example.com") == "csrf"
    assert waf_verdict("/", "", "a=1", "x", method="POST", origin="null",
                       host="shop.example.com") == "csrf"
    assert waf_verdict("/", "", "", "x", method="GET", origin="https://evil.example",
                       host="shop.example.com") is None
    assert waf_verdict("/", "", "a=1", "x", method="POST",
                       origin="https://shop.example.com:8443",
                       host="shop.example.com") is None


def test_rule_lines_become_the_consoles_rules_in_order() -> None:
    assert parse_limit_rules("/login* 10 ban 600\n\n  /api/* 100 DELAY 2  \n") == [
        LimitRule("/login*", 10, "ban", 600), LimitRule("/api/*", 100, "delay", 2)]
    assert LimitRule("/a", 1, "delay", 30).as_json() == {
        "pattern": "/a", "count": 1, "action": "delay", "seconds": 30}


def test_every_wrong_line_is_named_by_its_number() -> None:
    with pytest.raises(LimitRulesError) as error:
        parse_limit_rules("/ok 1 ban 60\n/x 100001 ban 60\n\n/y 5 delay 0\n/z 5 ban 2592001")
    assert [line for line, _text in error.value.problems] == [2, 4, 5]


def test_at_most_100_rules() -> None:
    with pytest.raises(LimitRulesError) as error:
        parse_limit_rules("\n".join(f"/p{n} 1 ban 60" for n in range(101)))
    assert error.value.problems == [(0, "at most 100 rules")]
