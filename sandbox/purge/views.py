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

from sandbox.console import directory
from sandbox.console.models import Operation
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
        raise PurgeError(errors.TOO_MANY_URLS,
                         detail=f"{len(urls)} URLs in one request, at most "
                                f"{throttle.LIMIT_URLS} a minute")
    return urls


def carry_out(request: HttpRequest, urls: list[str]) -> dict[str, list[str]]:
    default = directory.default_domain()
    default_name = default.name if default is not None else ""
    aliases = published(default_name).data["domains"] if default is not None else []
    edge = EdgeAddress.build(_request_hostname(request), ports.port_of("delivery"), aliases,
                             directory.domain_names(), default_name)
    targets = {url: edge.target_of(url) for url in urls}
    invalid = [url for url, target in targets.items() if target is None]
    with transaction.atomic():
        now = clock.now()
        if not throttle.allows(now, len(urls)):
            raise PurgeError(errors.TOO_MANY_URLS,
                             detail=f"at most {throttle.LIMIT_URLS} URLs a minute "
                                    f"({throttle.used(now)} in the last minute, "
                                    f"{len(urls)} in this request)")
        record = PurgeRequest.objects.create(at=now, url_count=len(urls), urls=urls,
                                             invalid=invalid)
        # Each accepted URL is an operation of the console's records (type `url`).
        Operation.objects.bulk_create([Operation(type=Operation.Type.URL, url=url, created_at=now)
                                       for url, target in targets.items() if target])
    evicted = sum(EDGE_CACHE.purge(*target)
                  for target in dict.fromkeys(targets.values()) if target)
    PurgeRequest.objects.filter(pk=record.pk).update(evicted=evicted)
    return {"invalid_domain_of_url": invalid}


def _request_hostname(request: HttpRequest) -> str:
    host: str = request.META.get("HTTP_HOST", "")
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host
