"""Permission checks shared by the storage pages.

Every page needs `storage.access_storage` (Auditors have it); acting needs the permission named
at each view as well, so an Auditor can read every page and change nothing. Names: an app
permission by its action, a model permission as Django's verb and the model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from backoffice.security.access import access_guard

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

ACCESS = "storage.access_storage"
MANAGE = "storage.manage_files"  # every change to the bucket; only Content managers hold it

needs = access_guard(ACCESS)


def abilities(user: User | AnonymousUser) -> dict[str, bool]:
    """What the templates may offer this user (buttons and forms are hidden otherwise)."""
    return {
        "can_manage": user.has_perm(MANAGE),
    }
