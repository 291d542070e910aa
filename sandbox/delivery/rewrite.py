"""The published rule set, run through edgerules for each request, and its outcome applied.

- The rule set runs first, on the request as it arrived (like an nginx rewrite phase, before
  access checks): patterns match the decoded path, `$_TIME` is the sandbox clock, and rules in
  debug mode apply only under `X-svc-Rewrite-Preview: true` (edgerules).
- Request header changes are applied to the headers the rest of the edge reads (Referer,
  User-Agent, X-Forwarded-For for the access checks).
- `$REDIRECT` and `$EXIT` answer at once; the URL rewrite decides what is served (a rewritten
  value that is a full URL serves its path: the edge has one origin).
- Response header changes apply to whatever the edge answers, after its own headers (so a rule
  may override a CORS header); `add` on a header already present joins the values with ", ".
- `$LIMIT_RATE_AFTER` / `$LIMIT_RATE` are recorded, not enforced: the answer carries
  `X-RateLimit-After: <bytes>` and `X-RateLimit-Rate: <bytes per second>`.
- `$REDIRECT404(url)`: a 404 of the file becomes a 302 to that URL.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.http import HttpRequest, HttpResponse, HttpResponseBase

from edgerules import HeaderChange, Outcome, RequestContext, RuleSet

WWW_FORM = "application/x-www-form-urlencoded"
MAX_FORM_BYTES = 64 * 1024  # `$_POST_name` reads small forms only; an edge does not buffer more


def context(request: HttpRequest, scheme: str, now: float) -> RequestContext:
    return RequestContext(
        method=(request.method or "GET").upper(),
        scheme=scheme,
        host=request.META.get("HTTP_HOST", ""),
        uri=request.path,
        query=request.META.get("QUERY_STRING", ""),
        headers=dict(request.headers),
        body=_form_body(request),
        time=now,
    )


def _form_body(request: HttpRequest) -> str:
    content_type = request.META.get("CONTENT_TYPE", "").split(";", 1)[0].strip().lower()
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return ""
    if content_type != WWW_FORM or not 0 < length <= MAX_FORM_BYTES:
        return ""
    return request.body.decode("utf-8", errors="replace")


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
