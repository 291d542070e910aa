"""Two-factor sign-in (TOTP, django-otp): enrolment, recovery codes, and the rule that an
enrolled person, or one whose group REQUIRE_2FA names, gets nothing but the code (or the
enrolment) page until the session is verified.

Every way in (the staff login, the admin's, the API's session login) first signs in with the
password through Django as before; `SecondFactorMiddleware` then holds the session at the
second step. Wrong codes are reported as failed logins, so django-axes counts them toward the
lockout like wrong passwords. Enrolling, moving to a new phone, a new set of recovery codes and
turning it off ask for the password again (`backoffice.security.reauth`). Seeds are kept
sealed and recovery codes hashed (`otp_keys`, `recovery`).
"""

from __future__ import annotations

import base64
import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

import segno
from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.signals import user_login_failed
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django_otp import devices_for_user
from django_otp import login as otp_login
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from backoffice.annotations import StaffRequest, StaffUser
from backoffice.models import AuditOutcome, SealedTOTPDevice
from backoffice.otp_keys import seal_seed
from backoffice.security import reauth, recovery
from backoffice.security.audit import record
from backoffice.security.throttle import forget_failures

SEED_BYTES = 20  # django-otp's default: 160 bits, as RFC 4226 recommends


class SecondFactorRefused(Exception):
    """A second-factor change or code that was not accepted; `reason` says why."""

    def __init__(self, reason: Literal["password", "code", "wait", "locked", "required"],
                 wait_seconds: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.wait_seconds = wait_seconds


@dataclass(frozen=True)
class CodeCheck:
    outcome: Literal["ok", "wrong", "wait", "locked"]
    wait_seconds: int = 0


def is_enrolled(user: StaffUser) -> bool:
    """Whether `user` has a confirmed second factor (an authenticator or recovery codes).

    Asked on every request of a session that has not given a code, so in one query over the
    two device kinds this project installs, where `devices_for_user` makes one per kind.
    """
    authenticators = TOTPDevice.objects.filter(user=user, confirmed=True).values("pk")
    recovery_codes = StaticDevice.objects.filter(user=user, confirmed=True).values("pk")
    return bool(authenticators.union(recovery_codes, all=True)[:1])


def is_required(user: StaffUser) -> bool:
    """REQUIRE_2FA names the person's group (or is `all`)."""
    required = settings.REQUIRE_2FA
    if not required:
        return False
    return "all" in required or user.groups.filter(name__in=required).exists()


def must_enrol(user: StaffUser) -> bool:
    """REQUIRE_2FA names the person's group (or is `all`) and they have no device yet."""
    return bool(settings.REQUIRE_2FA) and not is_enrolled(user) and is_required(user)


def pending_device(user: StaffUser) -> SealedTOTPDevice:
    """The unconfirmed TOTP device being enrolled (the same secret until confirmed), with its
    seed sealed from the start."""
    device: SealedTOTPDevice | None = SealedTOTPDevice.objects.filter(
        user=user, confirmed=False).first()
    if device is None:
        created = TOTPDevice.objects.create(user=user, name="authenticator", confirmed=False,
                                            key=seal_seed(secrets.token_bytes(SEED_BYTES)))
        device = SealedTOTPDevice.objects.get(pk=created.pk)
    return device


def secret_of(device: SealedTOTPDevice) -> str:
    """The secret as authenticator apps take it typed in: base32, in groups of four."""
    text = base64.b32encode(device.bin_key).decode().rstrip("=")
    return " ".join(text[i:i + 4] for i in range(0, len(text), 4))


def qr_svg(device: SealedTOTPDevice) -> str:
    """The otpauth:// address as an inline SVG drawn here (no image service, no network)."""
    return segno.make(device.config_url, error="m").svg_inline(scale=4, dark="#111",
                                                               light="#fff")


def _wait_seconds(device: SealedTOTPDevice) -> int:
    """How long django-otp's own throttle of this device still refuses codes (0: it does not)."""
    allowed, details = device.verify_is_allowed()
    until: datetime | None = (details or {}).get("locked_until")
    if allowed or until is None:
        return 0
    return max(1, math.ceil((until - timezone.now()).total_seconds()))


def _password_again(request: HttpRequest, user: StaffUser, password: str) -> None:
    outcome = reauth.check_password_again(request, user, password)
    if outcome != "ok":
        raise SecondFactorRefused("locked" if outcome == "locked" else "password")


def confirm_device(request: StaffRequest, device: SealedTOTPDevice, code: str,
                   password: str) -> list[str] | None:
    """Confirms a new authenticator with the password and a first code from it. The person's
    other authenticators go (moving to a new phone), and the session counts as verified.

    Returns the recovery codes to show once when this is a first enrolment, or None when the
    person keeps their codes; raises SecondFactorRefused otherwise."""
    user = request.user
    _password_again(request, user, password)
    wait = _wait_seconds(device)
    if wait:
        raise SecondFactorRefused("wait", wait)
    if not device.verify_token(code.replace(" ", "")):
        record("auth", "2fa.enrol", target=user, outcome=AuditOutcome.FAILED,
               summary="wrong confirmation code")
        raise SecondFactorRefused("code")
    first = not is_enrolled(user)
    with transaction.atomic():
        # Written through django-otp's own model (not the proxy), so that its receivers see it.
        confirmed = TOTPDevice.objects.get(pk=device.pk)
        confirmed.confirmed = True
        confirmed.save(update_fields=["confirmed"])
        for old in TOTPDevice.objects.filter(user=user).exclude(pk=device.pk):
            old.delete()
        codes = recovery.issue_codes(user) if first else None
    otp_login(request, confirmed)
    if first:
        record("auth", "2fa.enrol", target=user, summary="authenticator and recovery codes")
    return codes


def new_recovery_codes(request: StaffRequest, password: str) -> list[str]:
    """A new set of recovery codes (the earlier ones stop working), after the password."""
    _password_again(request, request.user, password)
    return recovery.issue_codes(request.user)


def turn_off(request: StaffRequest, password: str) -> None:
    """Removes the person's second factor, after the password; refused when their role
    requires one."""
    user = request.user
    if is_required(user):
        raise SecondFactorRefused("required")
    _password_again(request, user, password)
    forget_devices(user)


def verify_code(request: StaffRequest, code: str) -> CodeCheck:
    """Checks a sign-in code (authenticator or recovery code).

    A wrong code is a failed login for django-axes; at the limit the session is ended. While
    django-otp's own throttle holds the authenticator, the answer says how long to wait; the
    attempt still counts for django-axes (hammering during the wait locks like guessing)."""
    user = request.user
    credentials = {"username": user.get_username()}
    if not AxesProxyHandler.is_allowed(request, credentials):
        logout(request)
        return CodeCheck("locked")
    token = code.replace(" ", "").strip()
    matched: TOTPDevice | StaticDevice | None = None
    wait = 0
    # The devices are locked while verifying, so that one code cannot be used twice by two
    # requests at once; a recovery code is spent by deleting its row.
    with transaction.atomic():
        matched = recovery.use_code(user, token)
        authenticators = SealedTOTPDevice.objects.select_for_update().filter(
            user=user, confirmed=True)
        for device in authenticators if matched is None and token else ():
            wait = _wait_seconds(device)
            if not wait and device.verify_token(token):
                matched = device
                break
    if matched is not None:
        otp_login(request, matched)
        forget_failures(request, user.get_username())
        kind = "recovery code" if isinstance(matched, StaticDevice) else "authenticator"
        record("auth", "login.second_factor", target=user, summary=kind)
        return CodeCheck("ok")
    user_login_failed.send(sender=__name__, credentials={**credentials, "otp": True},
                           request=request)
    if getattr(request, "axes_locked_out", False):
        logout(request)
        return CodeCheck("locked")
    return CodeCheck("wait", wait) if wait else CodeCheck("wrong")


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
