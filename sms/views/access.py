"""Permission checks shared by the SMS pages.

Every page needs `sms.access_sms` (Auditors have it); acting needs the permission named at each
view as well, so an Auditor can read every page and change nothing. Names: an app permission by
its action, a model permission as Django's verb and the model (`DELETE_SUPPRESSED_NUMBER`).
"""

from __future__ import annotations

from backoffice.annotations import RequestUser
from backoffice.security.access import access_guard
from sms.models import MessageType

ACCESS = "sms.access_sms"
SEND = "sms.send_sms"
MANAGE_TEMPLATES = "sms.manage_templates"
OVERRIDE_WINDOW = "sms.override_quiet_hours"
# The suppression list: readers see it; adding (one by one, a file, a campaign's invalid
# numbers) and removing need the model's own permissions.
ADD_SUPPRESSED_NUMBER = "sms.add_suppressednumber"
DELETE_SUPPRESSED_NUMBER = "sms.delete_suppressednumber"

needs = access_guard(ACCESS)


def abilities(user: RequestUser) -> dict[str, bool]:
    """What the templates may offer this user (buttons and forms are hidden otherwise)."""
    return {
        "can_send": user.has_perm(SEND),
        "can_manage_templates": user.has_perm(MANAGE_TEMPLATES),
        "can_add_suppression": user.has_perm(ADD_SUPPRESSED_NUMBER),
        "can_remove_suppression": user.has_perm(DELETE_SUPPRESSED_NUMBER),
    }


def may_override_window(user: RequestUser, template_type: str) -> bool:
    """Whether to offer the sending-window override: marketing templates, permitted staff."""
    return template_type == MessageType.MARKETING and user.has_perm(OVERRIDE_WINDOW)
