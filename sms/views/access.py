"""Permission checks shared by the SMS pages.

Every page needs `sms.access_sms`; acting needs the action permission as well, so an
Auditor (access and view permissions only) can read every page and change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

ACCESS = "sms.access_sms"
SEND = "sms.send_sms"
MANAGE_TEMPLATES = "sms.manage_templates"


def require(
    *permissions: str,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    needed = (ACCESS, *permissions)

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.has_perms(needed):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


def abilities(user) -> dict[str, bool]:  # type: ignore[no-untyped-def]
    """What the signed-in staff member may do, for templates to show or hide buttons."""
    return {
        "can_send": user.has_perm(SEND),
        "can_manage_templates": user.has_perm(MANAGE_TEMPLATES),
    }
