"""Permission checks of the media pages: `access_media` to look, `run_media_jobs` to run."""

from __future__ import annotations

from backoffice.annotations import RequestUser
from backoffice.security.access import access_guard
from media.models import ACCESS_PERMISSION, RUN_PERMISSION

ACCESS = ACCESS_PERMISSION
VIEW_JOBS = "media.view_processingjob"
RUN = RUN_PERMISSION

needs = access_guard(ACCESS)


def abilities(user: RequestUser) -> dict[str, bool]:
    """What the templates may offer this user (run buttons are hidden from readers)."""
    return {
        "can_run": user.has_perms((ACCESS, RUN)),
        "can_view_jobs": user.has_perms((ACCESS, VIEW_JOBS)),
    }
