"""Control endpoints of the edge (control port, under /delivery/): the published settings and
the edge cache, for the back-office's publish step and for tests."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from sandbox.console import directory
from sandbox.core.jsonapi import FieldError, json_body
from sandbox.delivery import config, config_input, sites
from sandbox.delivery.cache import EDGE_CACHE


@csrf_exempt
@require_http_methods(["GET", "POST"])
def config_view(request: HttpRequest) -> JsonResponse:
    """GET: the domain's full current settings. POST: change the keys given, answer the full
    settings. The domain is the default one (the first storage service's first domain), or
    `?domain=` for another bound domain.

    A change empties the domain's edge cache: what was cached may have been made under other
    versions, minification or combining settings."""
    domain = request.GET.get("domain")
    if domain is None:
        site = sites.default_site()
        if site is None:
            return JsonResponse({"error": "the account has no storage service with a domain",
                                 "field": "domain"}, status=400)
        domain = site.domain
    elif directory.bound_domain(domain) is None:
        return JsonResponse({"error": f"domain: {domain!r} is not bound to any service",
                             "field": "domain"}, status=404)
    domain = domain.lower().rstrip(".")
    if request.method == "POST":
        try:
            changes = config_input.changes_from(json_body(request))
        except FieldError as error:
            return error.response()
        config.save(domain, changes)
        EDGE_CACHE.clear_domain(domain)
    return JsonResponse(config.published(domain).answer())


@csrf_exempt
@require_http_methods(["GET", "DELETE"])
def cache_view(request: HttpRequest) -> JsonResponse:
    """GET: what the edge holds (`{"entries": [...]}`); DELETE: empty it (`{"deleted": n}`)."""
    if request.method == "DELETE":
        return JsonResponse({"deleted": EDGE_CACHE.clear()})
    return JsonResponse({"entries": [entry.describe() for entry in EDGE_CACHE.entries()]})
