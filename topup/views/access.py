"""Permission checks shared by the staff pages."""

from __future__ import annotations

from backoffice.annotations import RequestUser
from backoffice.security.access import access_guard

ACCESS = "topup.access_topup"
CHARGE = "topup.charge_topup"
CONFIRM = "topup.confirm_manual_topup"
QUERY = "topup.change_order"
SNAPSHOT = "topup.add_balancesnapshot"
REPORT = "topup.add_reconciliationreport"
ADD_PRODUCT = "topup.add_product"
CHANGE_PRODUCT = "topup.change_product"

needs = access_guard(ACCESS)


def abilities(user: RequestUser) -> dict[str, bool]:
    """What the templates may offer this user (buttons and forms are hidden otherwise)."""
    return {
        "can_charge": user.has_perm(CHARGE),
        "can_confirm": user.has_perm(CONFIRM),
        "can_query": user.has_perm(QUERY),
        "can_snapshot": user.has_perm(SNAPSHOT),
        "can_report": user.has_perm(REPORT),
        "can_add_product": user.has_perm(ADD_PRODUCT),
        "can_change_product": user.has_perm(CHANGE_PRODUCT),
    }
