"""Permission checks shared by the services pages.

Every page needs `console.access_services` (Auditors have it); every change needs
`console.manage_services` as well (Content managers hold it), so an Auditor can read the
services, origins and domains and change nothing. Names: an app permission by its action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from backoffice.security.access import access_guard

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

ACCESS = "console.access_services"
MANAGE = "console.manage_services"  # add and change services, origins and domains

needs = access_guard(ACCESS)


def abilities(user: User | AnonymousUser) -> dict[str, bool]:
    """What the templates may offer this user (buttons and forms are hidden otherwise)."""
    return {
        "can_manage": user.has_perm(MANAGE),
    }
