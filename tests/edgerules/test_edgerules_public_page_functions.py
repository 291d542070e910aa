"""The functions and variables of the public page beyond content-delivery.md's table
(cdn/edgerules.md; DECISIONS.md "Content delivery"), with their bad inputs."""

from __future__ import annotations

import pytest

from edgerules import (
    HeaderChange,
    RequestContext,
    RuleSpec,
    Status,
    compile_rule_set,
    evaluate,
    lint,
)
from edgerules.effects import SET_BODY, SET_METHOD


def ctx(**fields: object) -> RequestContext:
    fields.setdefault("uri", "/a/b.jpg")
    return RequestContext(time=1_519_379_700, **fields)  # type: ignore[arg-type]


def value_of(rule: str, **fields: object) -> str:
    result = evaluate(rule, ctx(**fields))
    assert result.status is Status.APPLIED, result.error
    return result.value


def error_of(rule: str, **fields: object) -> str:
    result = evaluate(rule, ctx(**fields))
    assert result.status is Status.FAILED
    assert result.error is not None
    return result.error.code


@pytest.mark.parametrize(("rule", "value"), [
    ("$ADD(1, 2)", "3"),
    ("$ADD(1.5, 1.5)", "3"),
    ("$ADD(-1, 0.25)", "-0.75"),
    ("$MSUB(10, 4)", "6"),
    ("$MULTIPLY(2.5, 4)", "10"),
    ("$DIVIDE(10, 4)", "2.5"),
    ("$DIVIDE(1, 3)", "0.33333333333333"),
    ("$MOD(7, 3)", "1"),
    ("$MOD(-7, 3)", "2"),
    ("$FLOOR(2.7)", "2"),
    ("$FLOOR(-2.2)", "-3"),
    ("$CEIL(2.2)", "3"),
    ("$BYTE(A)", "65"),
    ("$INT(ff, 16)", "255"),
    ("$INT(5a0c8b2d, 16, 10)", "1510771501"),
    ("$INT(255, 10, 16)", "ff"),
    ("$INT(-10, 10, 2)", "-1010"),
    ("$INT(42)", "42"),
    ("$UNIXT(2018, 2, 23, 9, 55, 0)", "1519379700"),
    ("$STRF_TIME(1519379700)", "201802230955"),
    ("$STRF_TIME(1519379700, -)", "2018-02-23-09-55"),
    ("$STRF_TIME($_TIME)", "201802230955"),
    ("$LEN(abc)", "3"),
    ("$LEN('中文')", "2"),
    ("$GSUB(a-b-c, -, _, )", "a_b_c"),
    ("$GSUB(a-b-c, -, _, 1)", "a_b-c"),
    ("$GSUB(a-b-c, -, '', -1)", "abc"),
    ("$ESCAPE('a b/c?d=é')", "a%20b%2Fc%3Fd%3D%C3%A9"),
    ("$ESCAPE('-_.!~*\\'()')", "-_.!~*'()"),
    ("$UNESCAPE(a%20b%2Fc%C3%A9)", "a b/cé"),
    ("$UNESCAPE(a+b)", "a+b"),
    ("$ENCODE_BASE64($MD5_BIN(abc))", "kAFQmDzST7DWlj99KOF/cg=="),
    ("$LEN($MD5_BIN(abc))", "16"),
])
def test_each_function_of_the_page_computes_as_documented(rule: str, value: str) -> None:
    assert value_of(rule) == value


@pytest.mark.parametrize(("rule", "code"), [
    ("$DIVIDE(1, 0)", "division-by-zero"),
    ("$MOD(1, 0.0)", "division-by-zero"),
    ("$DIVIDE(1, $_GET_zero)", "bad-argument"),
    ("$ADD(1, x)", "bad-argument"),
    ("$BYTE('')", "bad-argument"),
    ("$INT(fg, 16)", "bad-argument"),
    ("$INT(0x10, 16)", "bad-argument"),
    ("$INT(10, 37)", "bad-argument"),
    ("$UNIXT(2018, 13, 1, 0, 0, 0)", "bad-argument"),
    ("$STRF_TIME(-5)", "bad-argument"),
    ("$GSUB(abc, '', x, )", "bad-argument"),
    ("$UNESCAPE(%E4%B8)", "bad-argument"),
    ("$UNESCAPE(100%)", "bad-argument"),
])
def test_a_bad_argument_fails_the_rule_with_its_code(rule: str, code: str) -> None:
    assert error_of(rule) == code


def test_a_rule_that_divides_by_zero_fails_and_later_rules_run() -> None:
    rules = [RuleSpec("$ADD_RSP_HEADER(X-Ratio, $DIVIDE(10, $_GET_n))", state="enabled"),
             RuleSpec("$ADD_RSP_HEADER(X-Later, yes)", state="enabled")]
    outcome = compile_rule_set(rules).run(ctx(query="n=0"))
    assert outcome.trace[0].status is Status.FAILED
    assert outcome.trace[0].error is not None
    assert outcome.trace[0].error.code == "division-by-zero"
    assert outcome.response_headers == (HeaderChange("add", "X-Later", "yes"),)
    assert compile_rule_set(rules).run(ctx(query="n=4")).response_headers[0] == HeaderChange(
        "add", "X-Ratio", "2.5")


def test_the_linter_flags_a_literal_zero_divisor() -> None:
    assert [d.code for d in lint("$DIVIDE(1, 0)")] == ["division-by-zero"]


def test_capture_makes_n_m_variables_in_the_order_of_the_calls() -> None:
    # $CAPTURE is true when it matched: a condition of $WHEN, as $MATCH is.
    rule = "$WHEN($CAPTURE($_URI, '^/([a-z]+)/([a-z]+)', ''), $CAPTURE($_HOST, '', ''))" \
        "/$1.2/$1.1/$2.0"
    assert value_of(rule, host="cdn.example.com") == "/b/a/cdn.example.com"


def test_capture_ignores_case_with_a_non_empty_third_argument() -> None:
    assert value_of("$WHEN($CAPTURE($_URI, '^/(A)/', 1))$1.1", uri="/a/b") == "a"
    assert evaluate("$WHEN($CAPTURE($_URI, '^/(A)/', ''))$1.1", ctx(uri="/a/b")).status is \
        Status.STOPPED


def test_a_capture_that_did_not_match_leaves_its_variables_absent() -> None:
    assert error_of("$CAPTURE($_URI, '^/z(.)', '')/$1.1") == "missing-variable"
    assert value_of("$CAPTURE($_URI, '^/z(.)', '')$NOT($1.1)") == "true"


def test_a_capture_variable_without_its_capture_is_a_lint_error() -> None:
    assert [d.code for d in lint("$CAPTURE($_URI, a, '')/$2.1")] == ["unknown-capture"]
    assert lint("/$1.html") == []  # $1 followed by text, not a capture variable


def test_the_new_variables() -> None:
    assert value_of("$_IP", ip="10.1.2.3") == "10.1.2.3"
    assert value_of("$_BODY", body="a=1") == "a=1"
    assert value_of("$LEN($_BODY)", body="x" * 20_000) == str(16 * 1024)
    assert value_of("$_GEOIP_COUNTRY_CODE", ip="1.2.3.4", country_of=lambda ip: "cn") == "CN"
    assert value_of("$NOT($_GEOIP_COUNTRY_CODE)", ip="1.2.3.4") == "true"
    assert error_of("/$_GEOIP_COUNTRY_CODE", ip="1.2.3.4",
                    country_of=lambda ip: None) == "missing-variable"


def test_the_country_is_looked_up_once_per_request() -> None:
    calls: list[str] = []

    def lookup(ip: str) -> str:
        calls.append(ip)
        return "US"

    assert value_of("$_GEOIP_COUNTRY_CODE$_GEOIP_COUNTRY_CODE", ip="127.0.0.3",
                    country_of=lookup) == "USUS"
    assert calls == ["127.0.0.3"]


def test_set_method_and_set_body() -> None:
    result = evaluate("$SET_METHOD(post)$SET_BODY(a=1)", ctx(method="GET"))
    assert result.effects == ((SET_METHOD, "POST"), (SET_BODY, "a=1"))
    rules = [RuleSpec("$SET_METHOD(PUT)$SET_BODY(x)", state="enabled")]
    outcome = compile_rule_set(rules).run(ctx(method="POST", body="y"))
    assert (outcome.method, outcome.body) == ("PUT", "x")


def test_set_method_get_on_a_request_with_a_body_fails_the_rule() -> None:
    assert error_of("$SET_METHOD(GET)", method="POST", body="a=1") == "body-method"
    assert error_of("$SET_METHOD(GET)", method="PUT", has_body=True) == "body-method"
    assert value_of("$SET_METHOD(GET)", method="POST") == ""


def test_set_method_refuses_a_method_the_page_does_not_list() -> None:
    assert error_of("$SET_METHOD(TRACE)") == "bad-method"
    assert [d.code for d in lint("$SET_METHOD(TRACE)")] == ["bad-method"]


def test_set_body_only_on_put_or_post() -> None:
    assert error_of("$SET_BODY(x)", method="GET") == "body-method"


@pytest.mark.parametrize("header", ["Via", "age", "Server", "connection", "X-Cache",
                                    "x-request-id", "X-Source", "Content-Length",
                                    "Content-Range", "Transfer-Encoding"])
def test_protected_response_headers_cannot_be_deleted(header: str) -> None:
    assert evaluate(f"$DEL_RSP_HEADER({header})", ctx()).effects == ()
    assert [(d.code, d.severity) for d in lint(f"$DEL_RSP_HEADER({header})")] == [
        ("protected-header", "warning")]


def test_any_and_all_without_arguments_are_false() -> None:
    assert value_of("$ALL()") == ""
    assert value_of("$ANY()") == ""
