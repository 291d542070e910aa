"""Permission checks shared by the delivery pages.

Seeing any page needs `access_delivery` (Auditors have it); acting needs the action or model
permission named at each view, which only Content managers hold.
"""

from __future__ import annotations

from backoffice.annotations import RequestUser
from backoffice.security.access import access_guard

ACCESS = "delivery.access_delivery"
MANAGE = "delivery.manage_delivery"
PURGE = "delivery.purge_cache"
SIGN = "delivery.sign_links"
ADD_RULESET = "delivery.add_ruleset"
CHANGE_RULESET = "delivery.change_ruleset"
DELETE_RULESET = "delivery.delete_ruleset"
CHANGE_SETTINGS = "delivery.change_deliverysettings"
CHANGE_VERSIONS = "delivery.change_imageversion"

needs = access_guard(ACCESS)


def abilities(user: RequestUser) -> dict[str, bool]:
    """What the templates may offer this user (buttons and forms are hidden otherwise)."""
    return {
        "can_manage": user.has_perm(MANAGE),
        "can_purge": user.has_perm(PURGE),
        "can_sign": user.has_perm(SIGN),
        "can_add_ruleset": user.has_perm(ADD_RULESET),
        "can_change_ruleset": user.has_perm(CHANGE_RULESET),
        "can_delete_ruleset": user.has_perm(DELETE_RULESET),
        "can_change_settings": user.has_perm(CHANGE_SETTINGS),
        "can_change_versions": user.has_perms((
            CHANGE_VERSIONS, "delivery.add_imageversion", "delivery.delete_imageversion")),
    }
