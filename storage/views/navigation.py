"""URLs and request parameters shared by the storage pages."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext

from backoffice.annotations import StaffRequest
from backoffice.ui.errors import NotFoundForStaff
from console.models import Service, ServiceKind
from console.services import UnknownService, service_for, visible_services
from storage import paths, rules
from storage.services import DEFAULT_PAGE_SIZE, PAGE_SIZES, is_private
from storage.texts import private_text

# The listing cursors of the pages before the current one travel in the address (the
# provider's cursors only go forward); they are Base64, which has no comma.
TRAIL_SEPARATOR = ","
# Name prefixes longer than a file name cannot match anything.
PREFIX_MAX_LENGTH = 255


def browse_url(
    service: Service,
    folder: str,
    *,
    order: str = "asc",
    limit: int = DEFAULT_PAGE_SIZE,
    cursor: str | None = None,
    trail: Sequence[str] = (),
    prefix: str = "",
) -> str:
    """The file browser at `folder`; defaults are left out to keep links short. `trail` holds
    the cursors of the pages between the first one and the one at `cursor`, so that the page
    can link to the previous one; `prefix` searches the folder by name."""
    query: dict[str, object] = {"service": service.name}
    if folder != paths.ROOT:
        query["path"] = folder
    if prefix:
        query["q"] = prefix
    if order != "asc":
        query["order"] = order
    if limit != DEFAULT_PAGE_SIZE:
        query["limit"] = limit
    if cursor:
        query["cursor"] = cursor
        if trail:
            query["trail"] = TRAIL_SEPARATOR.join(trail)
    return f"{reverse('storage:index')}?{urlencode(query)}"


def path_url(url_name: str, service: Service, path: str) -> str:
    return f"{reverse(url_name)}?{urlencode({'service': service.name, 'path': path})}"


def page_service(request: StaffRequest) -> Service:
    """The storage service a request works on: the `service` its form or address names (a
    page's links and forms always name it, so a switch in another tab never redirects a
    change), remembered as the person's choice on a page view; without one, their choice.

    The staff 404 page for an unknown name; 403 for a service the person may not use."""
    posted = request.method == "POST"
    name = (request.POST.get("service") if posted else None) or request.GET.get("service")
    try:
        return service_for(request.user, name, remember=not posted)
    except UnknownService:
        raise NotFoundForStaff(
            gettext("There is no storage service named “%(name)s”.") % {"name": name}
        ) from None


def not_private(path: str) -> str:
    """`path`, unless it is in the kept files' folder: then the staff 404 page, for every
    group (the services refuse it too; this gives the page its reason)."""
    if is_private(path):
        raise NotFoundForStaff(private_text(path))
    return path


def folder_param(value: str | None) -> tuple[str, list[rules.Problem]]:
    """The folder a request names (root when absent), or the root and the problems."""
    try:
        return paths.canonical(value or paths.ROOT), []
    except rules.RuleViolation as violation:
        return paths.ROOT, list(violation.problems)


@dataclass(frozen=True)
class Listing:
    """Where a browser request is: order, page size, the page's cursor (None: the first), the
    cursors of the pages before it (after the first) and the name prefix searched."""

    service: Service
    order: str
    limit: int
    cursor: str | None
    trail: tuple[str, ...]
    prefix: str

    @property
    def page_number(self) -> int:
        return len(self.trail) + 2 if self.cursor else 1

    def url(self, folder: str, *, cursor: str | None = None,
            trail: Sequence[str] = ()) -> str:
        return browse_url(self.service, folder, order=self.order, limit=self.limit,
                          cursor=cursor,
                          trail=trail, prefix=self.prefix)

    def previous_url(self, folder: str) -> str | None:
        if not self.cursor:
            return None
        if not self.trail:
            return self.url(folder)
        return self.url(folder, cursor=self.trail[-1], trail=self.trail[:-1])

    def next_url(self, folder: str, next_cursor: str | None) -> str | None:
        if not next_cursor:
            return None
        trail = (*self.trail, self.cursor) if self.cursor else ()
        return self.url(folder, cursor=next_cursor, trail=trail)


def listing_of(request: StaffRequest, service: Service) -> Listing:
    """The listing a browser request asks for; defaults for bad values. A search always lists
    in ascending name order (it relies on it to stop early)."""
    order = "desc" if request.GET.get("order") == "desc" else "asc"
    try:
        limit = int(request.GET.get("limit", DEFAULT_PAGE_SIZE))
    except ValueError:
        limit = DEFAULT_PAGE_SIZE
    if limit not in PAGE_SIZES:
        limit = DEFAULT_PAGE_SIZE
    cursor = request.GET.get("cursor") or None
    prefix = (request.GET.get("q") or "").strip()[:PREFIX_MAX_LENGTH]
    raw_trail = request.GET.get("trail") or ""
    trail = tuple(part for part in raw_trail.split(TRAIL_SEPARATOR) if part) if cursor else ()
    return Listing(service, "asc" if prefix else order, limit, cursor, trail, prefix)


def service_context(
    request: StaffRequest, service: Service, page: str = "storage:index"
) -> dict[str, object]:
    """What every storage page shows of its service: the name (as `bucket`, the provider's
    word), and the switcher's choices when the person may use more than one."""
    return {
        "service": service,
        "bucket": service.name,
        "switcher": {
            "services": visible_services(request.user, kind=ServiceKind.STORAGE),
            "chosen": service,
            "url": reverse(page),
        },
    }
