"""Every variable of the spec's table, present and absent, and the request context behind it."""

from __future__ import annotations

import random

import pytest
import regex

from edgerules import RequestContext, Status, evaluate
from edgerules.evaluator import Evaluation


def request(**fields: object) -> RequestContext:
    defaults: dict[str, object] = {"host": "img.cdn.example.com:8080", "uri": "/a/b.jpg"}
    defaults.update(fields)
    return RequestContext(**defaults)  # type: ignore[arg-type]


def value_of(rule: str, ctx: RequestContext | None = None) -> str:
    result = evaluate(rule, ctx or request())
    assert result.status is Status.APPLIED, result.error
    return result.value


def failure_of(rule: str, ctx: RequestContext | None = None) -> Evaluation:
    result = evaluate(rule, ctx or request())
    assert result.status is Status.FAILED
    assert result.error is not None
    return result


def test_host_is_the_host_header() -> None:
    assert value_of("$_HOST") == "img.cdn.example.com:8080"


@pytest.mark.parametrize(("n", "label"), [(1, "img"), (2, "cdn"), (3, "example"), (4, "com")])
def test_host_n_counts_sub_domains_from_the_left(n: int, label: str) -> None:
    assert value_of(f"$_HOST_{n}") == label


def test_host_n_beyond_the_last_label_fails_the_rule() -> None:
    result = failure_of("/$_HOST_5")
    assert result.error is not None
    assert (result.error.code, result.error.column) == ("missing-variable", 2)


def test_uri_and_query_are_the_raw_request_parts() -> None:
    ctx = request(uri="/p/a%20b", query="x=%41&y")
    assert value_of("$_URI|$_QUERY", ctx) == "/p/a%20b|x=%41&y"


def test_query_is_empty_not_missing_when_there_is_none() -> None:
    assert value_of("[$_QUERY]") == "[]"


def test_get_reads_the_raw_not_decoded_value() -> None:
    assert value_of("$_GET_name", request(query="name=a%2Fb&x=1")) == "a%2Fb"


def test_get_returns_the_first_of_repeated_parameters() -> None:
    assert value_of("$_GET_a", request(query="a=1&a=2")) == "1"


def test_get_of_a_parameter_without_value_is_empty() -> None:
    assert value_of("[$_GET_flag]", request(query="flag&x=1")) == "[]"


def test_get_of_a_missing_parameter_fails_the_rule() -> None:
    result = failure_of("/foo?id=$_GET_id", request(query="other=1"))
    assert result.error is not None
    assert result.error.code == "missing-variable"
    assert "query parameter 'id'" in result.error.message


def test_get_names_are_case_sensitive() -> None:
    failure_of("$_GET_ID", request(query="id=1"))


def test_post_reads_www_form_fields() -> None:
    ctx = request(
        method="POST",
        headers={"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"},
        body="user=bob&token=a%2B",
    )
    assert value_of("$_POST_user/$_POST_token", ctx) == "bob/a%2B"


def test_post_is_missing_for_a_body_that_is_not_www_form() -> None:
    ctx = request(method="POST", headers={"Content-Type": "application/json"}, body="user=bob")
    failure_of("$_POST_user", ctx)


def test_header_name_is_case_insensitive_and_underscore_matches_hyphen() -> None:
    ctx = request(headers={"User-Agent": "curl/8", "X-Custom_Name": "v"})
    assert value_of("$_HEADER_user_agent|$_HEADER_x_custom_name", ctx) == "curl/8|v"


def test_header_missing_fails_the_rule() -> None:
    result = failure_of("$_HEADER_referer")
    assert result.error is not None
    assert "header 'referer'" in result.error.message


def test_cookie_is_read_from_the_cookie_header() -> None:
    ctx = request(headers={"Cookie": "a=1; session=xyz; a=2"})
    assert value_of("$_COOKIE_session/$_COOKIE_a", ctx) == "xyz/1"


def test_cookie_mapping_takes_precedence_over_the_header() -> None:
    ctx = request(headers={"Cookie": "session=header"}, cookies={"session": "given"})
    assert value_of("$_COOKIE_session", ctx) == "given"


def test_cookie_missing_fails_the_rule() -> None:
    failure_of("$_COOKIE_session", request(headers={"Cookie": "other=1"}))


def test_random_is_eight_alphanumeric_characters() -> None:
    value = value_of("$_RANDOM")
    assert regex.fullmatch(r"[A-Za-z0-9]{8}", value)


@pytest.mark.parametrize("length", [1, 13, 32])
def test_random_n_has_n_characters(length: int) -> None:
    assert regex.fullmatch(rf"[A-Za-z0-9]{{{length}}}", value_of(f"$_RANDOM_{length}"))


def test_random_uses_the_injected_source() -> None:
    first = value_of("$_RANDOM_16", request(rng=random.Random(7)))
    second = value_of("$_RANDOM_16", request(rng=random.Random(7)))
    other = value_of("$_RANDOM_16", request(rng=random.Random(8)))
    assert first == second != other


def test_method_is_uppercase_and_scheme_lowercase() -> None:
    # DECISIONS.md: the docs' example compares $_SCHEME with `http`.
    assert value_of("$_METHOD $_SCHEME", request(method="put", scheme="HTTPS")) == "PUThttps"


def test_time_is_whole_unix_seconds() -> None:
    assert value_of("$_TIME", request(time=1_700_000_123.9)) == "1700000123"


def test_group_reads_the_pattern_capture() -> None:
    ctx = request(uri="/pay/25/8/x.html")
    match = regex.search(r"^/pay/([0-9]+)/([0-9]+)/(.*?).html$", ctx.uri)
    assert evaluate("$0|$1|$2|$3", ctx, match).value == "/pay/25/8/x.html|25|8|x"


def test_group_that_did_not_participate_is_empty() -> None:
    ctx = request(uri="/b")
    match = regex.search(r"^/(a)?b", ctx.uri)
    assert evaluate("[$1]", ctx, match).value == "[]"


def test_group_the_pattern_does_not_have_fails_the_rule() -> None:
    ctx = request(uri="/b")
    result = evaluate("/$2", ctx, regex.search(r"^/(b)", ctx.uri))
    assert result.error is not None
    assert (result.error.code, result.error.column) == ("unknown-group", 2)


def test_group_without_any_pattern_fails_the_rule() -> None:
    assert failure_of("/$1").error.code == "unknown-group"  # type: ignore[union-attr]


def test_preview_header_is_recognised_case_insensitively() -> None:
    assert request(headers={"x-SVC-rewrite-preview": " TRUE "}).wants_preview
    assert not request(headers={"X-svc-Rewrite-Preview": "yes"}).wants_preview
    assert not request().wants_preview
