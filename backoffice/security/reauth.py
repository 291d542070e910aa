"""Asking a signed-in person for their password again (the password-change page's old
password, and before a second-factor change): a wrong one is a failed login for django-axes,
counted in the same throttle as the sign-in pages', so a stolen session cannot guess the
password faster than the login page allows."""

from __future__ import annotations

from typing import Literal

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import logout
from django.contrib.auth.signals import user_login_failed
from django.http import HttpRequest

from backoffice.annotations import StaffUser

Outcome = Literal["ok", "wrong", "locked"]


def credentials_of(user: StaffUser) -> dict[str, object]:
    return {"username": user.get_username()}


def is_allowed(request: HttpRequest, user: StaffUser) -> bool:
    """Whether this user name may try a password from this address now."""
    return bool(AxesProxyHandler.is_allowed(request, credentials_of(user)))


def report_wrong_password(request: HttpRequest, user: StaffUser) -> Outcome:
    """Counts a wrong password given by a signed-in person; at the limit the session ends
    (whoever holds it is guessing) and the answer is 'locked'."""
    user_login_failed.send(sender=__name__, credentials=credentials_of(user), request=request)
    if getattr(request, "axes_locked_out", False):
        logout(request)
        return "locked"
    return "wrong"


def check_password_again(request: HttpRequest, user: StaffUser, password: str) -> Outcome:
    """The password asked again: 'ok', 'wrong' (counted) or 'locked' (not even checked)."""
    if not is_allowed(request, user):
        return "locked"
    if user.check_password(password):
        return "ok"
    return report_wrong_password(request, user)
