"""The purge API at `purge_url`: `POST /purge/` (DECISIONS.md, purge).

Form field `purge`: URLs separated by `\\n` (a `\\r` before it and blank lines are ignored).
The signature is checked before anything else is looked at beyond the field it signs; then the
rate limit; then the edge's URLs are evicted from the edge cache with all their variants, and
the answer lists the others: 200 `{"invalid_domain_of_url": [...]}`.
"""

from __future__ import annotations

from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from sandbox.core import clock, ports
from sandbox.delivery.cache import EDGE_CACHE
from sandbox.delivery.config import published
from sandbox.purge import auth, errors, throttle
from sandbox.purge.domains import EdgeAddress
from sandbox.purge.errors import PurgeError
from sandbox.purge.models import PurgeRequest

MAX_URLS_PER_REQUEST = throttle.LIMIT_URLS


@csrf_exempt
def purge(request: HttpRequest) -> HttpResponse:
    try:
        if request.method != "POST":
            raise PurgeError(errors.METHOD_NOT_ALLOWED, f"method {request.method} not allowed; "
                                                        "purge is POST /purge/")
        field = request.POST.get("purge")
        auth.authenticate(request.headers.get("Authorization", ""),
                          request.headers.get("Date", ""), field or "")
        urls = url_lines(field)
        answer = carry_out(request, urls)
    except PurgeError as error:
        response = error.response()
        if error.code == errors.METHOD_NOT_ALLOWED:
            response["Allow"] = "POST"
        return response
    return JsonResponse(answer)


def url_lines(field: str | None) -> list[str]:
    if field is None:
        raise PurgeError(errors.BAD_PURGE_FIELD, "the form field purge is required: URLs "
                                                 "separated by \\n")
    urls = [line.strip() for line in field.split("\n") if line.strip()]
    if not urls:
        raise PurgeError(errors.BAD_PURGE_FIELD, "the form field purge lists no URL")
    if len(urls) > MAX_URLS_PER_REQUEST:
        raise PurgeError(errors.TOO_MANY_REQUESTS,
                         f"too many requests: {len(urls)} URLs, at most "
                         f"{throttle.LIMIT_URLS} a minute")
    return urls


def carry_out(request: HttpRequest, urls: list[str]) -> dict[str, list[str]]:
    edge = EdgeAddress.build(_request_hostname(request), ports.port_of("delivery"),
                             published().data["domains"])
    paths = {url: edge.path_of(url) for url in urls}
    invalid = [url for url, path in paths.items() if path is None]
    with transaction.atomic():
        now = clock.now()
        if not throttle.allows(now, len(urls)):
            raise PurgeError(errors.TOO_MANY_REQUESTS,
                             f"too many requests: at most {throttle.LIMIT_URLS} URLs a minute "
                             f"({throttle.used(now)} in the last minute)")
        record = PurgeRequest.objects.create(at=now, url_count=len(urls), urls=urls,
                                             invalid=invalid)
    evicted = sum(EDGE_CACHE.purge(path) for path in dict.fromkeys(paths.values()) if path)
    PurgeRequest.objects.filter(pk=record.pk).update(evicted=evicted)
    return {"invalid_domain_of_url": invalid}


def _request_hostname(request: HttpRequest) -> str:
    host: str = request.META.get("HTTP_HOST", "")
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host
