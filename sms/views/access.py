"""Permission checks shared by the SMS pages.

Every page needs `sms.access_sms`; acting needs the action permission as well, so an
Auditor (access and view permissions only) can read every page and change nothing.
"""

from __future__ import annotations

from backoffice.annotations import RequestUser, StaffRequest, StaffUser
from backoffice.security.access import access_guard
from sms.models import MessageType

ACCESS = "sms.access_sms"
SEND = "sms.send_sms"
MANAGE_TEMPLATES = "sms.manage_templates"
OVERRIDE_WINDOW = "sms.override_quiet_hours"
# The suppression list: readers see it; adding (one by one, a file, a campaign's invalid
# numbers) and removing need the model's own permissions.
ADD_SUPPRESSION = "sms.add_suppressednumber"
REMOVE_SUPPRESSION = "sms.delete_suppressednumber"

needs = access_guard(ACCESS)


def staff_user(request: StaffRequest) -> StaffUser:
    """The signed-in staff member of a page behind `needs`, which admits no anonymous user."""
    return request.user


def abilities(user: RequestUser) -> dict[str, bool]:
    """What the signed-in staff member may do, for templates to show or hide buttons."""
    return {
        "can_send": user.has_perm(SEND),
        "can_manage_templates": user.has_perm(MANAGE_TEMPLATES),
        "can_add_suppression": user.has_perm(ADD_SUPPRESSION),
        "can_remove_suppression": user.has_perm(REMOVE_SUPPRESSION),
    }


def may_override_window(user: RequestUser, template_type: str) -> bool:
    """Whether to offer the sending-window override: marketing templates, permitted staff."""
    return template_type == MessageType.MARKETING and user.has_perm(OVERRIDE_WINDOW)
