"""Permission guards for the apps' staff pages.

Every page of an app needs the app's `access_<app>` permission; acting needs the action or
model permissions named at the view as well. Auditors hold only access and view permissions,
so they can read every page and change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase

from backoffice.annotations import StaffRequest, StaffUser

View = Callable[..., HttpResponseBase]
Guard = Callable[..., Callable[[View], View]]


def access_guard(access_permission: str) -> Guard:
    """Returns `needs(*permissions)`, a view decorator that refuses (403) unless the user holds
    `access_permission` and every one of `permissions`."""

    def needs(*permissions: str) -> Callable[[View], View]:
        required = (access_permission, *permissions)

        def decorate(view: View) -> View:
            @wraps(view)
            def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
                check_permissions(request, *required)
                return view(request, *args, **kwargs)

            return checked

        return decorate

    return needs


def check_permissions(request: HttpRequest, *permissions: str) -> None:
    """For views that show a page to every reader but act only with `permissions` (on POST):
    raises PermissionDenied (403) unless the user holds every one of them."""
    if not request.user.has_perms(permissions):
        raise PermissionDenied


def staff_user(request: StaffRequest) -> StaffUser:
    """The signed-in staff member of a page behind a guard, which admits no anonymous user."""
    return request.user
