"""Functions acting on the request/response: headers, $DEL_ARG, $REDIRECT, $EXIT, limits."""

from __future__ import annotations

import pytest

from edgerules import Exit, HeaderChange, Redirect, RequestContext, Status, evaluate
from edgerules.diagnostics import Diagnostic
from edgerules.effects import (
    DELETE_ARG,
    LIMIT_RATE,
    LIMIT_RATE_AFTER,
    REDIRECT_404,
    REQUEST_HEADER,
    RESPONSE_HEADER,
)
from edgerules.evaluator import Evaluation


def run(rule: str, **fields: object) -> Evaluation:
    return evaluate(rule, RequestContext(host="www.example.com", **fields))  # type: ignore[arg-type]


def error_of(rule: str) -> Diagnostic:
    result = run(rule)
    assert result.status is Status.FAILED
    assert result.error is not None
    return result.error


def test_add_req_header_records_an_add_and_returns_empty() -> None:
    result = run("$ADD_REQ_HEADER(X-Real-Host, $_HOST)")
    assert result.value == ""
    assert result.effects == (
        (REQUEST_HEADER, HeaderChange("add", "X-Real-Host", "www.example.com")),
    )


def test_del_req_header_records_a_delete() -> None:
    assert run("$DEL_REQ_HEADER(Accept-Encoding)").effects == (
        (REQUEST_HEADER, HeaderChange("delete", "Accept-Encoding")),
    )


def test_add_rsp_header_appends_when_the_third_argument_is_empty() -> None:
    assert run("$ADD_RSP_HEADER(Vary, Origin, )").effects == (
        (RESPONSE_HEADER, HeaderChange("add", "Vary", "Origin")),
    )


def test_add_rsp_header_overwrites_when_the_third_argument_is_not_empty() -> None:
    assert run("$ADD_RSP_HEADER(Cache-Control, 'max-age=60, public', 1)").effects == (
        (RESPONSE_HEADER, HeaderChange("set", "Cache-Control", "max-age=60, public")),
    )


def test_del_rsp_header_records_a_delete() -> None:
    assert run("$DEL_RSP_HEADER(X-Powered-By)").effects == (
        (RESPONSE_HEADER, HeaderChange("delete", "X-Powered-By")),
    )


def test_effects_keep_the_order_of_the_rule() -> None:
    result = run("$DEL_RSP_HEADER(A)$ADD_REQ_HEADER(B, 1)$ADD_RSP_HEADER(A, 2, )")
    assert [change.name for _, change in result.effects] == ["A", "B", "A"]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "rule",
    ["$ADD_REQ_HEADER('bad name', x)", "$DEL_RSP_HEADER('')", "$ADD_RSP_HEADER('a:b', x, )"],
)
def test_an_invalid_header_name_fails_the_rule(rule: str) -> None:
    assert error_of(rule).code == "bad-header"


def test_a_header_value_cannot_inject_a_line_break() -> None:
    result = run("$ADD_RSP_HEADER(X-Echo, $_GET_v, )", query="v=a\r\nSet-Cookie: x=1")
    assert result.status is Status.FAILED
    assert result.error is not None and result.error.code == "bad-header"


def test_del_arg_records_the_parameter_name() -> None:
    assert run("$DEL_ARG(utm_source)").effects == ((DELETE_ARG, "utm_source"),)


def test_del_arg_with_an_empty_name_fails_the_rule() -> None:
    assert error_of("$DEL_ARG('')").code == "bad-argument"


@pytest.mark.parametrize("status", ["301", "302", " 302 "])
def test_redirect_ends_with_a_301_or_302(status: str) -> None:
    result = run(f"$REDIRECT(https://$_HOST/new, '{status}')")
    assert result.status is Status.ENDED
    assert result.response == Redirect("https://www.example.com/new", int(status))


@pytest.mark.parametrize("status", ["303", "200", "", "abc"])
def test_redirect_with_another_status_fails_the_rule(status: str) -> None:
    error = error_of(f"$REDIRECT(/new, '{status}')")
    assert (error.code, error.column) == ("redirect-status", 1)


def test_redirect_with_an_empty_target_fails_the_rule() -> None:
    assert error_of("$REDIRECT('', 302)").code == "bad-argument"


def test_redirect_stops_evaluating_the_rest_of_the_rule() -> None:
    result = run("$ADD_RSP_HEADER(X-Before, 1, )$REDIRECT(/x, 302)$ADD_RSP_HEADER(X-After, 1, )")
    assert result.effects == ((RESPONSE_HEADER, HeaderChange("add", "X-Before", "1")),)


def test_exit_ends_with_the_status_and_body() -> None:
    result = run("$EXIT(403, 'access denied')")
    assert (result.status, result.response) == (Status.ENDED, Exit(403, "access denied"))


@pytest.mark.parametrize("status", ["99", "600", "forbidden", "1xx"])
def test_exit_with_an_invalid_status_fails_the_rule(status: str) -> None:
    assert error_of(f"$EXIT({status}, body)").code in ("exit-status", "bad-argument")


def test_redirect404_records_the_target() -> None:
    assert run("$REDIRECT404(/404.html)").effects == ((REDIRECT_404, "/404.html"),)


def test_limit_rates_record_bytes() -> None:
    result = run("$LIMIT_RATE_AFTER(20, m)$LIMIT_RATE(100, k)")
    assert result.effects == ((LIMIT_RATE_AFTER, 20 * 1024 * 1024), (LIMIT_RATE, 100 * 1024))


@pytest.mark.parametrize(
    ("unit", "factor"), [("k", 1024), ("K", 1024), ("m", 1024**2), ("M", 1024**2)]
)
def test_limit_rate_units(unit: str, factor: int) -> None:
    assert run(f"$LIMIT_RATE(3, '{unit}')").effects == ((LIMIT_RATE, 3 * factor),)


@pytest.mark.parametrize(
    "rule", ["$LIMIT_RATE(100, kb)", "$LIMIT_RATE(-1, k)", "$LIMIT_RATE(x, k)",
             "$LIMIT_RATE(3, g)", "$LIMIT_RATE(3, '')"]
)
def test_limit_rate_with_a_bad_amount_or_unit_fails_the_rule(rule: str) -> None:
    assert error_of(rule).code in ("rate-limit", "bad-argument")
