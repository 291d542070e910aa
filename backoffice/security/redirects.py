"""Where to send a person back to: addresses taken from a request, kept to this site.

A `next` field or a Referer header is the client's to write, so each is followed only when
Django's own check says it stays on this host (and on HTTPS when the request came over it).
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def on_this_site(request: HttpRequest, target: str) -> bool:
    return bool(target) and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )


def safe_next(request: HttpRequest, fallback: str) -> str:
    """The `next` field of a form or query when it points back into this site, else
    `fallback`."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    return target if on_this_site(request, target) else fallback


def came_from(request: HttpRequest, fallback: str) -> str:
    """The page a request was made from (its Referer, when it is this site), else
    `fallback`."""
    referer = request.headers.get("Referer") or ""
    return referer if on_this_site(request, referer) else fallback
