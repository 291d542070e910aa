"""Permission checks shared by the media pages.

Every page needs `media.access_media` (Auditors have it); acting needs the permission named at
each view as well, so an Auditor can read every page and change nothing. Names: an app
permission by its action, a model permission as Django's verb and the model.
"""

from __future__ import annotations

from backoffice.annotations import RequestUser
from backoffice.security.access import access_guard
from media.models import ACCESS_PERMISSION, RUN_PERMISSION

# The two app permissions are named in models.py, where the storage file actions find them too.
ACCESS = ACCESS_PERMISSION
RUN = RUN_PERMISSION
VIEW_PROCESSING_JOB = "media.view_processingjob"

needs = access_guard(ACCESS)


def abilities(user: RequestUser) -> dict[str, bool]:
    """What the templates may offer this user (buttons and forms are hidden otherwise)."""
    return {
        "can_run": user.has_perms((ACCESS, RUN)),
        "can_view_jobs": user.has_perms((ACCESS, VIEW_PROCESSING_JOB)),
    }
