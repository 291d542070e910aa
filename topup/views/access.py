"""Permission checks shared by the staff pages."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

ACCESS = "topup.access_topup"
CHARGE = "topup.charge_topup"
CONFIRM = "topup.confirm_manual_topup"
QUERY = "topup.change_order"
SNAPSHOT = "topup.add_balancesnapshot"
REPORT = "topup.add_reconciliationreport"
ADD_PRODUCT = "topup.add_product"
CHANGE_PRODUCT = "topup.change_product"

View = Callable[..., HttpResponse]


def needs(*permissions: str) -> Callable[[View], View]:
    """Refuse (403) unless the user holds the top-up access permission and all of these."""

    def decorate(view: View) -> View:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.has_perms((ACCESS, *permissions)):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return checked

    return decorate


def abilities(user: Any) -> dict[str, bool]:
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
