"""Two-factor sign-in (TOTP, django-otp): enrolment, recovery codes, and the rule that an
enrolled person, or one whose group REQUIRE_2FA names, gets nothing but the code (or the
enrolment) page until the session is verified.

Every way in (the staff login, the admin's, the API's session login) first signs in with the
password through Django as before; `SecondFactorMiddleware` then holds the session at the
second step. Wrong codes are reported as failed logins, so django-axes counts them toward the
lockout like wrong passwords.
"""

from __future__ import annotations

import base64
from collections.abc import Callable

import segno
from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.signals import user_login_failed
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django_otp import devices_for_user
from django_otp import login as otp_login
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from backoffice.annotations import StaffUser
from backoffice.models import AuditOutcome
from backoffice.security.audit import record
from backoffice.security.throttle import forget_failures

RECOVERY_CODES = 10


def is_enrolled(user: StaffUser) -> bool:
    """Whether `user` has a confirmed second factor (an authenticator or recovery codes).

    Asked on every request of a session that has not given a code, so in one query over the
    two device kinds this project installs, where `devices_for_user` makes one per kind.
    """
    authenticators = TOTPDevice.objects.filter(user=user, confirmed=True).values("pk")
    recovery_codes = StaticDevice.objects.filter(user=user, confirmed=True).values("pk")
    return bool(authenticators.union(recovery_codes, all=True)[:1])


def must_enrol(user: StaffUser) -> bool:
    """REQUIRE_2FA names the person's group (or is `all`) and they have no device yet."""
    required = settings.REQUIRE_2FA
    if not required or is_enrolled(user):
        return False
    return "all" in required or user.groups.filter(name__in=required).exists()


def pending_device(user: StaffUser) -> TOTPDevice:
    """The unconfirmed TOTP device being enrolled (the same secret until confirmed)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).first()
    return device or TOTPDevice.objects.create(user=user, name="authenticator",
                                               confirmed=False)


def secret_of(device: TOTPDevice) -> str:
    """The secret as authenticator apps take it typed in: base32, in groups of four."""
    text = base64.b32encode(device.bin_key).decode().rstrip("=")
    return " ".join(text[i:i + 4] for i in range(0, len(text), 4))


def qr_svg(device: TOTPDevice) -> str:
    """The otpauth:// address as an inline SVG drawn here (no image service, no network)."""
    return segno.make(device.config_url, error="m").svg_inline(scale=4, dark="#111",
                                                               light="#fff")


def confirm_enrolment(request: HttpRequest, device: TOTPDevice, code: str) -> list[str] | None:
    """Confirms the device with a first code: returns the ten recovery codes (to show once),
    or None when the code is wrong. The session counts as verified afterwards."""
    if not device.verify_token(code.replace(" ", "")):
        record("auth", "2fa.enrol", target=request.user, outcome=AuditOutcome.FAILED,
               summary="wrong confirmation code")
        return None
    with transaction.atomic():
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        TOTPDevice.objects.filter(user=request.user, confirmed=False).delete()
        StaticDevice.objects.filter(user=request.user).delete()
        recovery = StaticDevice.objects.create(user=request.user, name="recovery codes")
        codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
        recovery.token_set.bulk_create([StaticToken(device=recovery, token=c) for c in codes])
    otp_login(request, device)
    record("auth", "2fa.enrol", target=request.user, summary="authenticator and recovery codes")
    return codes


def verify_code(request: HttpRequest, code: str) -> str:
    """Checks a sign-in code (authenticator or recovery code): 'ok', 'wrong' or 'locked'.

    A wrong code is a failed login for django-axes; at the limit the session is ended."""
    user = request.user
    credentials = {"username": user.get_username()}
    if not AxesProxyHandler.is_allowed(request, credentials):
        logout(request)
        return "locked"
    token = code.replace(" ", "").strip()
    matched = None
    # The devices are locked while verifying (for_verify), so that one code cannot be used
    # twice by two requests at once.
    with transaction.atomic():
        for device in devices_for_user(user, confirmed=True, for_verify=True):
            if token and device.verify_token(token):
                matched = device
                break
    if matched is not None:
        otp_login(request, matched)
        forget_failures(request, user.get_username())
        kind = "recovery code" if isinstance(matched, StaticDevice) else "authenticator"
        record("auth", "login.second_factor", target=user, summary=kind)
        return "ok"
    user_login_failed.send(sender=__name__, credentials={**credentials, "otp": True},
                           request=request)
    if getattr(request, "axes_locked_out", False):
        logout(request)
        return "locked"
    return "wrong"


def reset_after_full_sign_in(sender: object, request: HttpRequest, user: StaffUser,
                             **kwargs: object) -> None:
    """user_logged_in: a password sign-in is complete for someone without a second factor,
    so their earlier failures from this address no longer count (for the enrolled,
    `verify_code` forgets them)."""
    if not is_enrolled(user):
        forget_failures(request, user.get_username())


def forget_devices(user: StaffUser) -> None:
    """Removes every second factor of `user` (the demo user is reset to password only)."""
    for device in devices_for_user(user, confirmed=None):
        device.delete()


class SecondFactorMiddleware:
    """Holds a password-only session at the second step (after django-otp's OTPMiddleware).

    An enrolled person sees only the code page; a person REQUIRE_2FA covers and who has no
    device sees only the enrolment page. Logging out, switching the language and static
    files stay open; API calls get a JSON 403 instead of a redirect.
    """

    OPEN_NAMES = ("logout", "set_language", "javascript-catalog", "login_code", "two_factor")

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or user.is_verified():
            return self.get_response(request)
        if is_enrolled(user):
            step = "login_code"
        elif must_enrol(user):
            step = "two_factor"
        else:
            return self.get_response(request)
        if self._open(request, step):
            return self.get_response(request)
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": "second factor required", "reason": step},
                                status=403)
        return redirect(f"{reverse(step)}?next={request.get_full_path()}")

    def _open(self, request: HttpRequest, step: str) -> bool:
        static = settings.STATIC_URL if settings.STATIC_URL.startswith("/") \
            else "/" + settings.STATIC_URL
        if request.path.startswith(static):
            return True
        open_paths = {reverse(name) for name in self.OPEN_NAMES if name != "two_factor"
                      and name != "login_code"}
        return request.path in open_paths or request.path == reverse(step)
