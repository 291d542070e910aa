"""Permission checks shared by the SMS pages.

Every page needs `sms.access_sms`; acting needs the action permission as well, so an
Auditor (access and view permissions only) can read every page and change nothing.
"""

from __future__ import annotations

from backoffice.access import access_guard

ACCESS = "sms.access_sms"
SEND = "sms.send_sms"
MANAGE_TEMPLATES = "sms.manage_templates"

needs = access_guard(ACCESS)


def abilities(user) -> dict[str, bool]:  # type: ignore[no-untyped-def]
    """What the signed-in staff member may do, for templates to show or hide buttons."""
    return {
        "can_send": user.has_perm(SEND),
        "can_manage_templates": user.has_perm(MANAGE_TEMPLATES),
    }
