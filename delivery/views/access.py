"""Permission checks shared by the delivery pages.

Every page needs `delivery.access_delivery` (Auditors have it); acting needs the permission
named at each view as well, so an Auditor can read every page and change nothing. Names: an app
permission by its action, a model permission as Django's verb and the model (`ADD_RULE_SET`).
"""

from __future__ import annotations

from backoffice.annotations import RequestUser
from backoffice.security.access import access_guard

ACCESS = "delivery.access_delivery"
MANAGE = "delivery.manage_delivery"
PURGE = "delivery.purge_cache"
SIGN = "delivery.sign_links"
ADD_RULE_SET = "delivery.add_ruleset"
CHANGE_RULE_SET = "delivery.change_ruleset"
DELETE_RULE_SET = "delivery.delete_ruleset"
CHANGE_DELIVERY_SETTINGS = "delivery.change_deliverysettings"
ADD_IMAGE_VERSION = "delivery.add_imageversion"
CHANGE_IMAGE_VERSION = "delivery.change_imageversion"
DELETE_IMAGE_VERSION = "delivery.delete_imageversion"

needs = access_guard(ACCESS)


def abilities(user: RequestUser) -> dict[str, bool]:
    """What the templates may offer this user (buttons and forms are hidden otherwise)."""
    return {
        "can_manage": user.has_perm(MANAGE),
        "can_purge": user.has_perm(PURGE),
        "can_sign": user.has_perm(SIGN),
        "can_add_ruleset": user.has_perm(ADD_RULE_SET),
        "can_change_ruleset": user.has_perm(CHANGE_RULE_SET),
        "can_delete_ruleset": user.has_perm(DELETE_RULE_SET),
        "can_change_settings": user.has_perm(CHANGE_DELIVERY_SETTINGS),
        "can_change_versions": user.has_perms((
            CHANGE_IMAGE_VERSION, ADD_IMAGE_VERSION, DELETE_IMAGE_VERSION)),
    }
