"""Permission checks of the media pages: `access_media` to look, `run_media_jobs` to run."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

ACCESS = "media.access_media"
VIEW_JOBS = "media.view_processingjob"
RUN = "media.run_media_jobs"

View = Callable[..., HttpResponse]


def needs(*permissions: str) -> Callable[[View], View]:
    """Refuse (403) unless the user holds the media access permission and all of these."""

    def decorate(view: View) -> View:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.has_perms((ACCESS, *permissions)):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return checked

    return decorate


def abilities(user: Any) -> dict[str, bool]:
    """What the templates may offer this user (run buttons are hidden from readers)."""
    return {
        "can_run": user.has_perms((ACCESS, RUN)),
        "can_view_jobs": user.has_perms((ACCESS, VIEW_JOBS)),
    }
