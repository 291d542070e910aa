"""The rule tester: a request typed by staff, run through a rule set with edgerules, and the
outcome as plain data for the page and the `rewrite_test` command. Pure: no Django.

Input shapes: the URL is `http(s)://host[:port]/path?query` or `/path?query` (the host then
comes from a `Host` header, else from `default_host`); headers are `Name: value` lines;
cookies are `name=value` pairs separated by `;` or new lines; the body is a www-form body and
gets `Content-Type: application/x-www-form-urlencoded` when no content type is given; `ip` is
the client's address (`$_IP`, the test addresses of rules in test, the country), empty for
none.
"""

from __future__ import annotations

import ipaddress
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from edgerules import (
    Exit,
    HeaderChange,
    Outcome,
    Redirect,
    RequestContext,
    RuleSpec,
    RuleStep,
    compile_rule_set,
)
from edgerules.source import Span, excerpt

METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH")
PREVIEW_HEADER = "X-svc-Rewrite-Preview"
WWW_FORM = "application/x-www-form-urlencoded"
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_COOKIE_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


@dataclass(frozen=True)
class InputProblem:
    """`field` is url, method, headers, cookies or body; `line` is 1-based, 0 for the field."""

    field: str
    line: int
    code: str
    message: str


class SampleInputError(ValueError):
    def __init__(self, problems: list[InputProblem]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{p.field} line {p.line}: {p.message}" for p in problems))


@dataclass(frozen=True)
class SampleRequest:
    method: str = "GET"
    url: str = "/"
    headers: str = ""
    cookies: str = ""
    body: str = ""
    preview: bool = False
    ip: str = ""


def parse_headers(text: str) -> tuple[dict[str, str], list[InputProblem]]:
    headers: dict[str, str] = {}
    problems = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        name, sep, value = raw.partition(":")
        name = name.strip()
        if not sep or not _HEADER_NAME.fullmatch(name):
            problems.append(InputProblem("headers", number, "header_line",
                                         "must be Name: value"))
            continue
        # Repeated headers are joined as HTTP allows (RFC 9110, 5.3).
        key = next((k for k in headers if k.lower() == name.lower()), name)
        value = value.strip()
        headers[key] = f"{headers[key]}, {value}" if key in headers else value
    return headers, problems


def parse_cookies(text: str) -> tuple[dict[str, str], list[InputProblem]]:
    cookies: dict[str, str] = {}
    problems = []
    for number, raw in enumerate(text.splitlines(), start=1):
        for item in raw.split(";"):
            if not item.strip():
                continue
            name, sep, value = item.strip().partition("=")
            if not sep or not _COOKIE_NAME.fullmatch(name.strip()):
                problems.append(InputProblem("cookies", number, "cookie_pair",
                                             "must be name=value"))
                continue
            cookies.setdefault(name.strip(), value.strip())
    return cookies, problems


def build_context(request: SampleRequest, *, default_host: str = "",
                  now: float | None = None,
                  country_of: Callable[[str], str | None] | None = None) -> RequestContext:
    """The edgerules request for the typed one; SampleInputError names every bad field/line."""
    problems: list[InputProblem] = []
    method = request.method.strip().upper()
    if method not in METHODS:
        problems.append(InputProblem("method", 0, "method",
                                     f"must be one of {', '.join(METHODS)}"))
    url = request.url.strip()
    scheme, host, path, query = "http", "", "/", ""
    if url.startswith(("http://", "https://")):
        parts = urlsplit(url)
        scheme, host = parts.scheme, parts.netloc
        path, query = parts.path or "/", parts.query
        if not host:
            problems.append(InputProblem("url", 0, "url", "has no host"))
    elif url.startswith("/"):
        path, _, query = url.partition("?")
        path = path.split("#", 1)[0]
    else:
        problems.append(InputProblem("url", 0, "url",
                                     "must be http(s)://host/path or start with /"))
    if any(ch.isspace() for ch in url):
        problems.append(InputProblem("url", 0, "url_space", "must not contain spaces"))
    ip = request.ip.strip()
    if ip:
        try:
            ip = str(ipaddress.ip_address(ip))
        except ValueError:
            problems.append(InputProblem("ip", 0, "ip", "must be an IPv4 or IPv6 address"))
    headers, header_problems = parse_headers(request.headers)
    cookies, cookie_problems = parse_cookies(request.cookies)
    problems += header_problems + cookie_problems
    if problems:
        raise SampleInputError(problems)
    lower = {name.lower(): name for name in headers}
    if "host" in lower:
        host = host or headers[lower["host"]]
    host = host or default_host
    if request.body and "content-type" not in lower:
        headers["Content-Type"] = WWW_FORM
    if request.preview and PREVIEW_HEADER.lower() not in lower:
        headers[PREVIEW_HEADER] = "true"
    if cookies and "cookie" not in lower:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    return RequestContext(
        method=method, scheme=scheme, host=host, uri=path, query=query, headers=headers,
        cookies=cookies or None, body=request.body, time=time.time() if now is None else now,
        ip=ip, country_of=country_of)


def run(specs: Sequence[RuleSpec | Mapping[str, object]], ctx: RequestContext) -> Outcome:
    return compile_rule_set(specs).run(ctx, trace=True)


def step_dict(step: RuleStep) -> dict[str, Any]:
    """One rule's trace. `checks` are the conditions of `$WHEN`/`$ALL`/`$ANY` it evaluated
    (`held` false names the one that stopped it), `variables` each variable of the rule with
    its value, `absent` when the request lacks it, `evaluated` false when never reached."""
    return {
        "index": step.index,
        "number": step.index + 1,
        "pattern": step.pattern,
        "rule": step.rule,
        "status": str(step.status),
        "matched": step.matched,
        "groups": list(step.groups),
        "value": step.value,
        "error": _error(step),
        "response": _response(step.response),
        "stopped_at": list(step.stopped_at) if step.stopped_at else None,
        "checks": [
            {"function": check.function, "position": check.position, "text": check.text,
             "value": check.value, "held": check.held, "line": check.line,
             "column": check.column}
            for check in step.checks],
        "variables": [
            {"name": reading.text, "value": reading.value, "absent": reading.absent,
             "evaluated": reading.evaluated, "line": reading.line, "column": reading.column}
            for reading in step.readings],
    }


def _error(step: RuleStep) -> dict[str, Any] | None:
    """The error as data, with `subject`: the text it points at in the rule or pattern (the
    variable of a failed interpolation, the call of a syntax error)."""
    if step.error is None:
        return None
    data = step.error.as_dict()
    source = step.pattern if step.error.field == "pattern" else step.rule
    try:
        data["subject"] = excerpt(source, Span(step.error.line, step.error.column,
                                               step.error.end_line, step.error.end_column))
    except IndexError:  # a position outside the text (never for edgerules' own spans)
        data["subject"] = ""
    return data


def _response(response: Redirect | Exit | None) -> dict[str, Any] | None:
    if response is None:
        return None
    if hasattr(response, "location"):
        return {"kind": "redirect", "status": response.status, "location": response.location}
    return {"kind": "exit", "status": response.status, "body": response.body}


def outcome_dict(outcome: Outcome) -> dict[str, Any]:
    """The outcome as JSON-ready data: final URL, header changes, response, limits, trace."""
    return {
        "uri": outcome.uri,
        "query": outcome.query,
        "url": outcome.url,
        "rewritten": outcome.rewritten,
        "rewrite_rule": None if outcome.rewrite_rule is None else outcome.rewrite_rule + 1,
        "request_headers": [vars_of(change) for change in outcome.request_headers],
        "response_headers": [vars_of(change) for change in outcome.response_headers],
        "deleted_args": list(outcome.deleted_args),
        "redirect": _response(outcome.redirect),
        "exit": _response(outcome.exit),
        "redirect_404": outcome.redirect_404,
        "limit_rate_after": outcome.limit_rate_after,
        "limit_rate": outcome.limit_rate,
        "method": outcome.method,
        "body": outcome.body,
        "trace": [step_dict(step) for step in outcome.trace],
    }


def _variable_value(variable: dict[str, Any]) -> str:
    if not variable["evaluated"]:
        return "(not evaluated)"
    return "(absent)" if variable["absent"] else repr(variable["value"])


def vars_of(change: HeaderChange) -> dict[str, Any]:
    return {"action": change.action, "name": change.name, "value": change.value}


def format_trace(outcome: Outcome) -> str:
    """Plain-text report for the command line."""
    data = outcome_dict(outcome)
    lines = []
    for step in data["trace"]:
        line = f"rule {step['number']}: {step['status']}"
        if step["pattern"]:
            line += f"  pattern {step['pattern']!r}"
        if step["groups"]:
            line += f"  groups {step['groups']}"
        if step["status"] == "applied":
            line += f"  -> {step['value']!r}"
        if step["error"]:
            error = step["error"]
            line += (f"  error {error['field']} {error['line']}:{error['column']} "
                     f"{error['message']} [{error['code']}]")
        if step["stopped_at"]:
            line += f"  stopped by $WHEN at {step['stopped_at'][0]}:{step['stopped_at'][1]}"
        if step["response"]:
            line += f"  response {step['response']}"
        lines.append(line)
        for check in step["checks"]:
            if not check["held"]:
                lines.append(f"  false: condition {check['position']} of ${check['function']} "
                             f"at {check['line']}:{check['column']}, {check['text']} = "
                             f"{check['value']!r}")
        for variable in step["variables"]:
            lines.append(f"  {variable['name']} = {_variable_value(variable)}")
    lines.append(f"final URL: {data['url']}"
                 + (f" (rewritten by rule {data['rewrite_rule']})" if data["rewritten"] else ""))
    for label, key in (("request header", "request_headers"),
                       ("response header", "response_headers")):
        for change in data[key]:
            value = "" if change["value"] is None else f": {change['value']}"
            lines.append(f"{label} {change['action']} {change['name']}{value}")
    if data["deleted_args"]:
        lines.append(f"deleted query parameters: {', '.join(data['deleted_args'])}")
    if data["redirect"]:
        lines.append(f"redirect {data['redirect']['status']} to {data['redirect']['location']}")
    if data["exit"]:
        lines.append(f"exit {data['exit']['status']} with body {data['exit']['body']!r}")
    if data["redirect_404"]:
        lines.append(f"on 404 redirect to {data['redirect_404']}")
    if data["limit_rate_after"] is not None:
        lines.append(f"limit rate after {data['limit_rate_after']} bytes")
    if data["limit_rate"] is not None:
        lines.append(f"limit rate {data['limit_rate']} bytes/s")
    if data["method"]:
        lines.append(f"method changed to {data['method']}")
    if data["body"] is not None:
        lines.append(f"body replaced with {data['body']!r}")
    return "\n".join(lines)
