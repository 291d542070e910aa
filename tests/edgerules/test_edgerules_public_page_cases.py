"""The public page's worked cases and syntax examples (cdn/edgerules.md) run as written and give
the result the page describes."""

from __future__ import annotations

import hashlib
import time

import pytest

from edgerules import Exit, HeaderChange, Outcome, Redirect, RequestContext, RuleSpec, lint
from edgerules import compile_rule_set as compile_set
from tests.edgerules.documented_examples import (
    ADD_FROM_CDN,
    DELETE_ACCEPT_ENCODING,
    EMPTY_ALL_IS_FALSE,
    HEX_TIME_EXPIRED,
    IP_AND_METHOD,
    LIMIT_RATE_800K,
    LOWERCASE_MATCH,
    NO_QUERY_AT_ALL,
    NO_TOKEN_COOKIE,
    OVERWRITE_CDN_HEADER,
    PAGE_CASES,
    PAY_REWRITE,
    PLAYLIST_RENAME,
    QUOTED_SPECIALS,
    QUOTED_VARIABLE,
    SUB_OF_DECODED_HEADER,
    TOKEN_RULES,
    Example,
)

NOW = 1_700_000_000


def run(examples: Example | tuple[Example, ...], uri: str, **fields: object) -> Outcome:
    chosen = (examples,) if isinstance(examples, Example) else examples
    specs = [RuleSpec(example.rule, example.pattern, state="enabled") for example in chosen]
    fields.setdefault("host", "cdn.example.com")
    ctx = RequestContext(uri=uri, time=NOW, **fields)  # type: ignore[arg-type]
    return compile_set(specs).run(ctx)


def signed(path: str, etime: int, secret: str = "abc") -> str:
    """The page's PHP: key = md5(secret . etime . path)."""
    key = hashlib.md5(f"{secret}{etime}{path}".encode(), usedforsecurity=False).hexdigest()
    return f"key={key}&t={etime}"


@pytest.mark.parametrize("example", PAGE_CASES.values(), ids=PAGE_CASES.keys())
def test_the_linter_finds_no_error_in_a_case_of_the_page(example: Example) -> None:
    assert [d for d in lint(example.rule, pattern=example.pattern) if d.severity == "error"] == []


def test_case_1_a_valid_token_passes_every_rule() -> None:
    outcome = run(TOKEN_RULES, "/test.ts", query=signed("/test.ts", NOW + 600))
    assert (outcome.exit, outcome.url) == (None, f"/test.ts?{signed('/test.ts', NOW + 600)}")


@pytest.mark.parametrize(("query", "status"), [
    ("", 403),
    ("t=1900000000", 403),
    (signed("/test.ts", NOW - 1), 401),
    (signed("/other.ts", NOW + 600), 403),  # the key of another file
])
def test_case_1_a_missing_expired_or_wrong_token_is_refused(query: str, status: int) -> None:
    assert run(TOKEN_RULES, "/test.ts", query=query).exit == Exit(status, "")


def test_case_1_leaves_other_files_alone() -> None:
    assert run(TOKEN_RULES, "/index.html").exit is None


def test_case_2_without_the_token_cookie_redirects_301() -> None:
    outcome = run(NO_TOKEN_COOKIE, "/index.html")
    assert outcome.redirect == Redirect("http://test.example.com/no_token.html", 301)
    assert run(NO_TOKEN_COOKIE, "/live.html").redirect is None
    assert run(NO_TOKEN_COOKIE, "/index.html", headers={"Cookie": "token=1"}).redirect is None


def test_case_3_pay_and_playlist_rewrites() -> None:
    assert run(PAY_REWRITE, "/pay/25/8/x.html").url == "/pay.php?payid=25&categoryid=8"
    assert run(PLAYLIST_RENAME, "/app/stream/playlist.m3u8").url == "/app/stream.m3u8"


def test_case_4_header_changes() -> None:
    assert run(ADD_FROM_CDN, "/a").request_headers == (HeaderChange("add", "X-From-Cdn", "upyun"),)
    assert run(DELETE_ACCEPT_ENCODING, "/a").request_headers == (
        HeaderChange("delete", "Accept-Encoding"),)
    assert run(OVERWRITE_CDN_HEADER, "/a").response_headers == (
        HeaderChange("set", "CDN", "UPYUN"),)


def test_case_5_limits_after_20_mb_to_800_kb_a_second_on_the_test_host() -> None:
    outcome = run(LIMIT_RATE_800K, "/mp4/4E10F356C0FEAD359C33DC5901307461-10.mp4",
                  host="test.example.com")
    assert (outcome.limit_rate_after, outcome.limit_rate) == (20 * 1024**2, 800 * 1024)
    assert run(LIMIT_RATE_800K, "/mp4/a-10.mp4").limit_rate is None


def test_case_6_a_lower_case_match_rewrites_to_the_mixed_case_name() -> None:
    assert run(LOWERCASE_MATCH, "/UPTEST.png").url == "/UPtest.png"
    assert run(LOWERCASE_MATCH, "/other.png").url == "/other.png"


def test_case_7_is_true_once_the_hexadecimal_time_is_an_hour_old() -> None:
    old, fresh = format(NOW - 3601, "x"), format(NOW - 3599, "x")
    assert run(HEX_TIME_EXPIRED, "/a.mp4", query=f"t={old}").uri == "true"
    assert run(HEX_TIME_EXPIRED, "/a.mp4", query=f"t={fresh}").rewritten is False


def test_case_7_without_t_fails_and_rewrites_nothing() -> None:
    outcome = run(HEX_TIME_EXPIRED, "/a.mp4")
    error = outcome.trace[0].error
    assert error is not None
    assert (outcome.rewritten, error.code) == (False, "bad-argument")


def test_the_guide_passes_ip_and_method_to_the_origin() -> None:
    outcome = run(IP_AND_METHOD, "/index.htm", ip="192.168.1.1")
    assert outcome.url == "/index.php?ip=192.168.1.1&method=GET"


def test_the_syntax_examples() -> None:
    assert run(QUOTED_VARIABLE, "/a").uri == "/foo/$_HOST"
    nested = run(SUB_OF_DECODED_HEADER, "/a", query="from=2&to=4",
                 headers={"foo": "YWJjZGVm"})  # base64 of "abcdef"
    assert nested.uri == "/bcd/"
    assert run(NO_QUERY_AT_ALL, "/a", query="x=1").url == "/foo"
    assert run(QUOTED_SPECIALS, "/a").uri == "/foo/$\\,'"
    assert run(EMPTY_ALL_IS_FALSE, "/a").exit is None


def test_the_time_of_the_request_is_used_when_none_is_given() -> None:
    spec = RuleSpec(HEX_TIME_EXPIRED.rule, state="enabled")
    ctx = RequestContext(uri="/a", query=f"t={format(int(time.time()) - 7200, 'x')}")
    assert compile_set([spec]).run(ctx).uri == "true"
