"""The top menu: one entry per service the signed-in staff member may open."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse

from backoffice.annotations import RequestUser
from backoffice.catalogue import MENU_PAGES, SERVICES, Service


def visible_services(user: RequestUser) -> list[Service]:
    if not user.is_authenticated:
        return []
    return [service for service in SERVICES if user.has_perm(service.access_permission)]


def visible_pages(user: RequestUser) -> list[Service]:
    """The services menu entries, then the other pages this person may open."""
    if not user.is_authenticated:
        return []
    return [*visible_services(user),
            *(page for page in MENU_PAGES if user.has_perm(page.access_permission))]


def menu_context(request: HttpRequest) -> dict[str, object]:
    services = visible_pages(request.user)
    path = request.path
    items = []
    for service in services:
        url = reverse(f"{service.key}:index")
        items.append({"key": service.key, "label": service.label, "url": url,
                      "active": path.startswith(url)})
    return {"menu_items": items, "can_see_admin": can_see_admin(request)}


def can_see_admin(request: HttpRequest) -> bool:
    """Whether the admin would show this person anything: staff status alone opens an empty
    index, which is not worth a menu entry."""
    return bool(request.user.is_staff and admin.site.get_app_list(request))
