"""The published rule set, run through edgerules for each request, and its outcome applied.

- The rule set runs first, on the request as it arrived (like an nginx rewrite phase, before
  access checks): patterns match the decoded path, `$_TIME` is the sandbox clock, and rules in
  test apply only to requests from their test addresses or under
  `X-svc-Rewrite-Preview: true`, rules that are off to none (edgerules).
- Request header changes are applied to the headers the rest of the edge reads (Referer,
  User-Agent, X-Forwarded-For for the access checks).
- `$REDIRECT` and `$EXIT` answer at once; the URL rewrite decides what is served (a rewritten
  value that is a full URL serves its path: the edge has one origin).
- Response header changes apply to whatever the edge answers, after its own headers (so a rule
  may override a CORS header); `add` on a header already present joins the values with ", ".
- `$LIMIT_RATE_AFTER` / `$LIMIT_RATE` pace the answer's body (pacing.py); the answer also
  carries `X-RateLimit-After: <bytes>` and `X-RateLimit-Rate: <bytes per second>`.
- `$REDIRECT404(url)`: a 404 of the file becomes a 302 to that URL.
- The rules see `$_IP` as the access checks do (the peer, or the first X-Forwarded-For address
  of a loopback peer), `$_GEOIP_COUNTRY_CODE` from geo.py, and `$_BODY` as the body's first
  16 KB. `$SET_METHOD` / `$SET_BODY` change the request the edge then handles: the method it
  serves (a storage domain serves GET and HEAD) and what an own origin receives.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.http import HttpRequest, HttpResponse, HttpResponseBase

from edgerules import HeaderChange, Outcome, RequestContext, RuleSet
from edgerules.names import BODY_LIMIT
from sandbox.delivery import access, geo

# A body larger than this is not read for the rules (`$_BODY`, `$_POST_name` see it empty); an
# edge does not buffer big uploads. The request still counts as carrying a body.
MAX_READ_BYTES = 1024 * 1024


def context(request: HttpRequest, scheme: str, now: float) -> RequestContext:
    headers = dict(request.headers)
    length = _length(request)
    return RequestContext(
        method=(request.method or "GET").upper(),
        scheme=scheme,
        host=request.META.get("HTTP_HOST", ""),
        uri=request.path,
        query=request.META.get("QUERY_STRING", ""),
        headers=headers,
        body=_body(request, length),
        has_body=length != 0,
        time=now,
        ip=access.client_ip(request.META.get("REMOTE_ADDR", ""), request.headers),
        country_of=geo.country,
    )


def _length(request: HttpRequest) -> int:
    """The body's length; -1 for a chunked body of unknown length."""
    if "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
        return -1
    try:
        return max(int(request.META.get("CONTENT_LENGTH") or 0), 0)
    except ValueError:
        return 0


def _body(request: HttpRequest, length: int) -> str:
    if not 0 < length <= MAX_READ_BYTES:
        return ""
    return request.body[:BODY_LIMIT].decode("utf-8", errors="replace")


def run(rule_set: RuleSet, ctx: RequestContext) -> Outcome:
    return rule_set.run(ctx, trace=False)


def request_headers(original: dict[str, str], changes: tuple[HeaderChange, ...]) -> dict[str, str]:
    """The request headers (lowercase names) after the rule set's changes."""
    headers = {name.lower(): value for name, value in original.items()}
    for change in changes:
        name = change.name.lower()
        if change.action == "delete":
            headers.pop(name, None)
        elif change.action == "add" and name in headers:
            headers[name] = f"{headers[name]}, {change.value}"
        else:
            headers[name] = change.value or ""
    return headers


def served_path(outcome: Outcome) -> str:
    """The path to serve: the rewritten URI, reduced to a path when it is a full URL."""
    uri = outcome.uri
    if "://" in uri:
        uri = urlsplit(uri).path
    return uri if uri.startswith("/") else "/" + uri


def ended(outcome: Outcome) -> HttpResponse | None:
    """The answer of a `$REDIRECT` or `$EXIT`, or None."""
    if outcome.redirect is not None:
        response = HttpResponse(status=outcome.redirect.status)
        response["Location"] = outcome.redirect.location
        return response
    if outcome.exit is not None:
        return HttpResponse(outcome.exit.body, status=outcome.exit.status,
                            content_type="text/plain; charset=utf-8")
    return None


def apply_response_headers(response: HttpResponseBase, outcome: Outcome | None) -> None:
    if outcome is None:
        return
    for change in outcome.response_headers:
        if change.action == "delete":
            if change.name in response:
                del response[change.name]
        elif change.action == "add" and change.name in response:
            response[change.name] = f"{response[change.name]}, {change.value}"
        else:
            response[change.name] = change.value or ""
    if outcome.limit_rate_after is not None:
        response["X-RateLimit-After"] = str(outcome.limit_rate_after)
    if outcome.limit_rate is not None:
        response["X-RateLimit-Rate"] = str(outcome.limit_rate)


def redirect_404(outcome: Outcome | None) -> HttpResponse | None:
    if outcome is None or not outcome.redirect_404:
        return None
    response = HttpResponse(status=302)
    response["Location"] = outcome.redirect_404
    return response
