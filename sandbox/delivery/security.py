"""The security panel of own-origin domains at the edge: the request size limit (first, before
anything reads the body: body_limit.py), then, after the access checks, the IP access limit
rules (ip_limits.py) and the WAF (waf.py). A domain of a storage service has none of them
(the console refuses these sections for it)."""

from __future__ import annotations

import time

from django.http import HttpRequest

from sandbox.delivery import access, body_limit, ip_limits, waf
from sandbox.delivery.config import Published
from sandbox.delivery.sites import Site


def applies(site: Site) -> bool:
    return site.bucket is None


def check_size(request: HttpRequest, site: Site, settings: Published) -> None:
    """413 when the body is over the domain's limit (reads only the request's headers)."""
    if applies(site):
        body_limit.check(request.META, body_limit.limit_of(settings.data))


def screen(request: HttpRequest, site: Site, settings: Published, headers: dict[str, str],
           now: float) -> None:
    """The IP access limit rules (403 on a ban; a delay holds the answer here), then the WAF
    when it is on (403)."""
    if not applies(site):
        return
    meta = request.META
    path = meta.get("REQUEST_URI", "").split("?", 1)[0] or request.path
    if settings.limits:
        ip = access.client_ip(meta.get("REMOTE_ADDR", ""), headers)
        delay = ip_limits.check(site.domain, settings.limits, ip, request.path, now)
        if delay > 0:
            time.sleep(delay)  # real time: the answer is held, whatever the sandbox clock says
    if not settings.data.get("waf"):
        return
    try:
        length = int(meta.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    body = waf.form_text(request.body) if waf.is_form(meta.get("CONTENT_TYPE", ""),
                                                      length) else ""
    waf.check(path, meta.get("QUERY_STRING", ""), body, meta.get("HTTP_USER_AGENT", ""),
              method=(request.method or "GET"), origin=meta.get("HTTP_ORIGIN", ""),
              host=meta.get("HTTP_HOST", ""))
