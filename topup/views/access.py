"""Permission checks shared by the top-up pages.

Every page needs `topup.access_topup` (Auditors have it); acting needs the permission named at
each view as well, so an Auditor can read every page and change nothing. Names: an app
permission by its action, a model permission as Django's verb and the model (`CHANGE_ORDER`).
"""

from __future__ import annotations

from backoffice.annotations import RequestUser
from backoffice.security.access import access_guard

ACCESS = "topup.access_topup"
CHARGE = "topup.charge_topup"
CONFIRM = "topup.confirm_manual_topup"
CHANGE_ORDER = "topup.change_order"  # querying the provider again about an order
ADD_BALANCE_SNAPSHOT = "topup.add_balancesnapshot"
ADD_RECONCILIATION_REPORT = "topup.add_reconciliationreport"
ADD_PRODUCT = "topup.add_product"
CHANGE_PRODUCT = "topup.change_product"
VIEW_API_TOKEN = "topup.view_apitoken"
ADD_API_TOKEN = "topup.add_apitoken"
CHANGE_API_TOKEN = "topup.change_apitoken"  # revoking a token

needs = access_guard(ACCESS)


def abilities(user: RequestUser) -> dict[str, bool]:
    """What the templates may offer this user (buttons and forms are hidden otherwise)."""
    return {
        "can_charge": user.has_perm(CHARGE),
        "can_confirm": user.has_perm(CONFIRM),
        "can_query": user.has_perm(CHANGE_ORDER),
        "can_snapshot": user.has_perm(ADD_BALANCE_SNAPSHOT),
        "can_report": user.has_perm(ADD_RECONCILIATION_REPORT),
        "can_add_product": user.has_perm(ADD_PRODUCT),
        "can_change_product": user.has_perm(CHANGE_PRODUCT),
        "can_create_api_token": user.has_perm(ADD_API_TOKEN),
        "can_revoke_api_token": user.has_perm(CHANGE_API_TOKEN),
    }
