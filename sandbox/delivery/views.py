"""The CDN edge at `delivery_url`: every path of the port comes here.

The request's `Host` picks the domain (sites.py), whose own settings apply; a host that is no
domain of the account is answered 404. Then a request goes through, in order (each step may
answer on its own):
0. the external-links switch (external_links.py): off answers 405 to every request; then, on
   an own-origin domain, the request size limit (security.py, body_limit.py): 413 from the
   headers alone, before anything reads the body;
1. forced HTTPS: a request is HTTPS when it arrived on the HTTPS port (core/tls_server.py,
   serving this same view with `wsgi.url_scheme` https) or carries `X-Forwarded-Proto: https`
   (a TLS terminator in front); otherwise 301 to the same URL with https:// (same Host);
2. the published rule set (rewrite.py): `$REDIRECT` / `$EXIT` answer here;
3. access checks on the request as the rules left its headers: IP ban, User-Agent, Referer
   (access.py), region restriction (region.py), then the token (auth.py) of the URL the client
   requested; then, on an own-origin domain, the IP access limit rules (ban 403 or a held
   answer) and the WAF (403); and last origin authentication (origin_auth.py: it costs a
   request to the merchant, so only a request every other check lets through asks it);
4. the method: GET and HEAD are served, OPTIONS answers 204 (a CORS preflight), anything else
   405 (on an own-origin domain, POST, PUT, PATCH and DELETE go to the origin);
5. the content: from storage (content.py), or, on a domain of an own-origin service (the Host
   names it, sites.py), from the cache, mirror storage and the origin (own_origin.py); a 404
   turned into the rules' `$REDIRECT404` when one is set.
Every answer, refusals included, carries the configured CORS headers and then the rules'
response header changes; its body leaves at the rules' rate limit (pacing.py). The method and
body the rules set (`$SET_METHOD`, `$SET_BODY`) are the ones steps 4 and 5 see.
"""

from __future__ import annotations

from urllib.parse import unquote

from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.views.decorators.csrf import csrf_exempt

from edgerules import Outcome
from sandbox.core import clock
from sandbox.delivery import (
    access,
    auth,
    cdn_service,
    content,
    external_links,
    origin_auth,
    own_origin,
    pacing,
    region,
    rewrite,
    security,
    sites,
)
from sandbox.delivery.config import Published, published
from sandbox.delivery.errors import METHOD_NOT_ALLOWED, UNKNOWN_DOMAIN, EdgeError, invalid_token
from sandbox.delivery.sites import Site

SERVED_METHODS = ("GET", "HEAD")
ALLOW = "GET, HEAD, OPTIONS"


class PermanentHttpsRedirect(HttpResponseRedirect):
    status_code = 301
    allowed_schemes = ["https"]


@csrf_exempt
def edge(request: HttpRequest) -> HttpResponseBase:
    host = request.META.get("HTTP_HOST", "")
    site = site_of_request(host)
    if site is None:
        return EdgeError(404, UNKNOWN_DOMAIN,
                         f"the domain {sites.hostname(host)!r} is not bound to any service "
                         "of this account (bind it in the console)").response()
    settings = published(site.domain)
    outcome, response = _handle(request, site, settings)
    for name, value in settings.data["cors"].items():
        response[name] = value
    rewrite.apply_response_headers(response, outcome)
    if outcome is not None:
        response = pacing.limit(response, outcome.limit_rate_after, outcome.limit_rate)
    return response


def site_of_request(host: str) -> Site | None:
    default = sites.default_site()
    aliases = published(default.domain).data["domains"] if default is not None else []
    return sites.site_for_host(host, aliases)


def _handle(request: HttpRequest, site: Site,
            settings: Published) -> tuple[Outcome | None, HttpResponseBase]:
    try:
        external_links.check(settings.flag("external_links"))
        security.check_size(request, site, settings)  # before anything reads the body
    except EdgeError as error:
        return None, error.response()
    secure = request.scheme == "https" or _forwarded_proto(request) == "https"
    scheme = "https" if secure else "http"
    if settings.flag("force_https") and scheme != "https":
        host = request.META.get("HTTP_HOST", "")
        return None, PermanentHttpsRedirect(f"https://{host}{request.get_full_path()}")
    now = clock.now()
    outcome = rewrite.run(settings.rule_set, rewrite.context(request, scheme, now))
    ended = rewrite.ended(outcome)
    if ended is not None:
        return outcome, ended
    headers = rewrite.request_headers(dict(request.headers), outcome.request_headers)
    try:
        ip = _check_access(request, headers, settings, now)
        security.screen(request, site, settings, headers, now)
        _ask_origin(request, headers, settings, ip)
        response = _content(request, outcome, site, settings, headers)
        if response.status_code == 404:  # an own origin's 404 answer
            moved = rewrite.redirect_404(outcome)
            if moved is not None:
                return outcome, moved
        return outcome, response
    except EdgeError as error:
        if error.status == 404:
            moved = rewrite.redirect_404(outcome)
            if moved is not None:
                return outcome, moved
        return outcome, error.response()


def _forwarded_proto(request: HttpRequest) -> str:
    forwarded: str = request.META.get("HTTP_X_FORWARDED_PROTO", "")
    return forwarded.split(",")[0].strip().lower()


def _check_access(request: HttpRequest, headers: dict[str, str], settings: Published,
                  now: float) -> str:
    """The hotlink checks, region and token; answers the client's address."""
    ip = access.client_ip(request.META.get("REMOTE_ADDR", ""), headers)
    access.check(ip, headers, settings.blacklist, settings.referer, settings.agents)
    region.check(ip, settings.data["region"])
    if settings.flag("token_protection"):
        _check_token(request, now, settings)
    return ip


def _ask_origin(request: HttpRequest, headers: dict[str, str], settings: Published,
                ip: str) -> None:
    """Origin authentication, last: it costs the merchant a request."""
    uri = request.META.get("REQUEST_URI", "") or request.get_full_path()
    origin_auth.check(settings.data["origin_auth"], uri, (request.method or "GET").upper(),
                      request.META.get("HTTP_HOST", ""), ip, headers)


def _check_token(request: HttpRequest, now: float, settings: Published) -> None:
    values = request.GET
    upt = values.get("_upt") or request.COOKIES.get("_upt")
    raw_path = request.META.get("REQUEST_URI", "").split("?", 1)[0] or request.path
    spellings = (raw_path, unquote(raw_path), request.path)
    if not auth.verify(settings.token_secret, upt, values.get("_upp"), spellings, now):
        raise invalid_token()


def _content(request: HttpRequest, outcome: Outcome, site: Site, settings: Published,
             headers: dict[str, str]) -> HttpResponseBase:
    method = outcome.method or (request.method or "GET").upper()
    if method == "OPTIONS":
        response = HttpResponse(status=204)
        response["Allow"] = ALLOW
        return response
    cdn = cdn_service.own_origin_of(site)
    if cdn is not None and method in own_origin.CACHED_METHODS + own_origin.PASSED_METHODS:
        peer = request.META.get("REMOTE_ADDR", "")
        incoming = own_origin.Incoming(
            method=method, path=rewrite.served_path(outcome), raw_query=outcome.query,
            headers=headers, body=_body(request, outcome) if method in own_origin.PASSED_METHODS
            else b"",
            client_ip=access.client_ip(peer, headers), peer=peer)
        return own_origin.serve(cdn, incoming, settings)
    if method not in SERVED_METHODS:
        error = EdgeError(405, METHOD_NOT_ALLOWED, f"method {method} not allowed; the edge "
                                                   f"serves {ALLOW}")
        response = error.response()
        response["Allow"] = ALLOW
        return response
    served = content.serve(site, rewrite.served_path(outcome), outcome.query, settings,
                           head=method == "HEAD")
    if method == "HEAD" and (request.method or "").upper() != "HEAD":
        # `$SET_METHOD(HEAD)` on a GET: the client reads a body, so the answer says it is empty.
        served["Content-Length"] = "0"
    return served


def _body(request: HttpRequest, outcome: Outcome) -> bytes:
    """The body the origin receives: the one `$SET_BODY` set, else the request's."""
    return outcome.body.encode("utf-8") if outcome.body is not None else request.body
