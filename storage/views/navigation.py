"""URLs and request parameters shared by the storage pages."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from storage import paths, rules
from storage.services.browsing import DEFAULT_PAGE_SIZE, PAGE_SIZES


def browse_url(
    folder: str,
    *,
    order: str = "asc",
    limit: int = DEFAULT_PAGE_SIZE,
    cursor: str | None = None,
    page: int = 1,
) -> str:
    """The file browser at `folder`; defaults are left out to keep links short."""
    query: dict[str, object] = {}
    if folder != paths.ROOT:
        query["path"] = folder
    if order != "asc":
        query["order"] = order
    if limit != DEFAULT_PAGE_SIZE:
        query["limit"] = limit
    if cursor:
        query["cursor"] = cursor
        query["page"] = page
    base = reverse("storage:index")
    return f"{base}?{urlencode(query)}" if query else base


def path_url(url_name: str, path: str) -> str:
    return f"{reverse(url_name)}?{urlencode({'path': path})}"


def folder_param(value: str | None) -> tuple[str, list[rules.Problem]]:
    """The folder a request names (root when absent), or the root and the problems."""
    try:
        return paths.canonical(value or paths.ROOT), []
    except rules.RuleViolation as violation:
        return paths.ROOT, list(violation.problems)


def listing_params(request: HttpRequest) -> tuple[str, int, str | None, int]:
    """order, limit, cursor and page number of a browser request, defaults for bad values."""
    order = "desc" if request.GET.get("order") == "desc" else "asc"
    try:
        limit = int(request.GET.get("limit", DEFAULT_PAGE_SIZE))
    except ValueError:
        limit = DEFAULT_PAGE_SIZE
    if limit not in PAGE_SIZES:
        limit = DEFAULT_PAGE_SIZE
    cursor = request.GET.get("cursor") or None
    try:
        page = max(1, int(request.GET.get("page", 1)))
    except ValueError:
        page = 1
    return order, limit, cursor, page if cursor else 1


def safe_next(request: HttpRequest, fallback: str) -> str:
    """The `next` field of a form when it points back into this site, else `fallback`."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback
