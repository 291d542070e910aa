"""Permission checks shared by the storage pages.

Every page needs `storage.access_storage` (Auditors have it); acting needs the permission named
at each view as well, so an Auditor can read every page and change nothing. Names: an app
permission by its action, a model permission as Django's verb and the model.

A page also needs a storage service to work on: when the account has none the provider can be
reached with, every page says so in the layout instead of failing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any

from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import render

from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.access import access_guard
from storage.texts import error_text

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

ACCESS = "storage.access_storage"
MANAGE = "storage.manage_files"  # every change to the bucket; only Content managers hold it

_guard = access_guard(ACCESS)
View = Callable[..., HttpResponseBase]


def needs(*permissions: str) -> Callable[[View], View]:
    """The access guard, and the "not configured" page when no service can be reached."""
    guarded = _guard(*permissions)

    def decorate(view: View) -> View:
        @wraps(view)
        def explained(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            try:
                return view(request, *args, **kwargs)
            except ProviderNotConfigured as missing:
                return render(request, "storage/not_configured.html",
                              {"error": error_text(missing)})

        return guarded(explained)

    return decorate


def abilities(user: User | AnonymousUser) -> dict[str, bool]:
    """What the templates may offer this user (buttons and forms are hidden otherwise)."""
    return {
        "can_manage": user.has_perm(MANAGE),
    }
