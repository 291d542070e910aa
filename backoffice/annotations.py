"""The types of the person acting and of the request they send, named once for every app.

django-stubs types `HttpRequest.user` as `User | AnonymousUser`, because a request may come
from anyone. Behind `LoginRequiredMiddleware` every staff page is served to a signed-in
`User` only, so views say so with `StaffRequest` (and the merchant API's DRF views, past
`IsAuthenticated`, with `StaffApiRequest`), and the services they call take the `StaffUser`
who acts (for `has_perm`, `.pk`, `.get_username()` and the `..._by` foreign keys) instead of
`Any`. `RequestUser` is for the few places that also see anonymous visitors: middleware,
context processors, the dashboards' permission checks and the audit context.

Types only: importing this module loads no model (the auth models are imported for mypy
alone), so any module may use it, even before the app registry is ready.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from django.http import HttpRequest
from rest_framework.request import Request

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

# The signed-in staff member who acts (settings.AUTH_USER_MODEL is Django's own User).
StaffUser: TypeAlias = "User"

# Whoever sent a request, signed in or not.
RequestUser: TypeAlias = "User | AnonymousUser"


class StaffRequest(HttpRequest):
    """A request to a page that needs a signed-in user (the login-required default)."""

    user: User


class StaffApiRequest(Request):
    """A merchant API request past `IsAuthenticated`: a token's or a session's `User`."""

    user: User
