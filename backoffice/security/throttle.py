"""Login throttling on top of django-axes, three rules (see docs/access.md, "Signing in"):

- 5 failures for one user name *from one address* lock that pair for 15 minutes: an attacker
  who knows a name locks only their own address out of it, never its owner elsewhere;
- 20 failures from one address, whatever the names, lock the address for 15 minutes;
- 50 failures for one user name within an hour, from all addresses together, hold that name
  until the oldest of them is an hour old: the slow, site-wide ceiling on guessing one
  password from many addresses (a delay, no CAPTCHA: the answer says when to retry).

Axes compares one failure count with one limit (AXES_FAILURE_LIMIT, the pair's). Its counts
per lockout parameter (the pair first, the address second, as in AXES_LOCKOUT_PARAMETERS) and
the name's hourly count are each scaled onto that limit, so that each reaches the lockout
exactly at its own limit: floor(n * PAIR_LIMIT / LIMIT) >= PAIR_LIMIT holds exactly when
n >= LIMIT. The hourly count is read from axes's failure log (AccessFailureLog), which keeps
every counted failure; the access attempts themselves are deleted after the 15 minutes.

Every login that calls `django.contrib.auth.authenticate` with the request (the staff login,
the admin's, the API's session login), every wrong second-factor code (see
`backoffice.security.otp`), every wrong old password on the password-change page and every
wrong password asked again before a second-factor change (`backoffice.security.reauth`) goes
through it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_ip_address, get_client_username
from axes.models import AccessAttempt, AccessFailureLog
from django.db.models import Max, QuerySet, Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import ngettext

PAIR_LIMIT = 5
ADDRESS_LIMIT = 20
NAME_LIMIT_PER_HOUR = 50
WINDOW = timedelta(minutes=15)
NAME_WINDOW = timedelta(hours=1)


def _sum(attempts: QuerySet[AccessAttempt]) -> int:
    total: int | None = attempts.aggregate(total=Sum("failures_since_start"))["total"]
    return total or 0


def name_failures(username: str | None) -> QuerySet[AccessFailureLog]:
    """The failures counted for `username` within the last hour, from every address."""
    failures: QuerySet[AccessFailureLog] = AccessFailureLog.objects.filter(
        username=username or "", attempt_time__gte=timezone.now() - NAME_WINDOW)
    return failures if username else failures.none()


def address_of(request: HttpRequest) -> str | None:
    """The client address as axes counts it; None when the request has none (a test client's
    `force_login`, a request built by hand)."""
    address = getattr(request, "axes_ip_address", None) or get_client_ip_address(request)
    return str(address) if address else None


def forget_failures(request: HttpRequest, username: str) -> None:
    """A full sign-in: this name's failures from this address no longer count. Only this
    address's: the owner signing in must not lift a lock an attacker earned elsewhere, nor
    the name's hourly count. Axes stores a missing address as NULL."""
    AccessAttempt.objects.filter(username=username, ip_address=address_of(request)).delete()


class StaffLoginHandler(AxesDatabaseHandler):
    """Axes's database handler with a limit per (name, address), per address and per name."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        by_pair, by_address = (_sum(attempts)
                               for attempts in self.get_user_attempts(request, credentials))
        by_name = name_failures(get_client_username(request, credentials)).count()
        return max(by_pair, by_address * PAIR_LIMIT // ADDRESS_LIMIT,
                   by_name * PAIR_LIMIT // NAME_LIMIT_PER_HOUR)


@dataclass(frozen=True)
class Lockout:
    until: datetime
    by_name: bool  # the hourly limit of the user name, rather than this address's


def lockout_of(request: HttpRequest, credentials: dict[str, Any] | None) -> Lockout:
    """When the lockout of this request ends: the latest end among the rules that hold it
    (failures during a lockout do not push it on, see settings)."""
    username = get_client_username(request, credentials)
    address = address_of(request)
    ends: list[datetime] = []
    recent = AccessAttempt.objects.filter(attempt_time__gte=timezone.now() - WINDOW)
    for attempts, limit in ((recent.filter(username=username, ip_address=address), PAIR_LIMIT),
                            (recent.filter(ip_address=address), ADDRESS_LIMIT)):
        if _sum(attempts) >= limit:
            ends.append(attempts.aggregate(at=Max("attempt_time"))["at"] + WINDOW)
    by_name = False
    times = list(name_failures(username).order_by("-attempt_time")
                 .values_list("attempt_time", flat=True)[:NAME_LIMIT_PER_HOUR])
    if len(times) >= NAME_LIMIT_PER_HOUR:
        # Free again once the 50th most recent failure is an hour old: 49 remain.
        name_end = times[-1] + NAME_WINDOW
        by_name = not ends or name_end > max(ends)
        ends.append(name_end)
    return Lockout(until=max(ends) if ends else timezone.now() + WINDOW, by_name=by_name)


def time_with_zone(moment: datetime) -> str:
    """'14:05 Asia/Shanghai (UTC+08:00)': the hour in the current time zone, named."""
    local = timezone.localtime(moment)
    offset = local.utcoffset() or timedelta(0)
    sign = "-" if offset < timedelta(0) else "+"
    hours, rest = divmod(abs(int(offset.total_seconds())), 3600)
    return (f"{date_format(local, 'H:i')} {timezone.get_current_timezone_name()} "
            f"(UTC{sign}{hours:02d}:{rest // 60:02d})")


def lockout_message(lockout: Lockout) -> str:
    minutes = max(1, math.ceil((lockout.until - timezone.now()).total_seconds() / 60))
    values = {"time": time_with_zone(lockout.until), "minutes": minutes}
    if lockout.by_name:
        return ngettext(
            "Too many failed sign-ins for this user name in the last hour, from all addresses."
            " Try again after %(time)s (in %(minutes)d minute).",
            "Too many failed sign-ins for this user name in the last hour, from all addresses."
            " Try again after %(time)s (in %(minutes)d minutes).",
            minutes,
        ) % values
    return ngettext(
        "Too many failed sign-ins for this user name or from this address. Try again after "
        "%(time)s (in %(minutes)d minute).",
        "Too many failed sign-ins for this user name or from this address. Try again after "
        "%(time)s (in %(minutes)d minutes).",
        minutes,
    ) % values


def lockout_response(request: HttpRequest, original_response: object = None,
                     credentials: dict[str, Any] | None = None) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: 429 with Retry-After; JSON for API clients, a page otherwise."""
    lockout = lockout_of(request, credentials)
    seconds = max(1, math.ceil((lockout.until - timezone.now()).total_seconds()))
    message = lockout_message(lockout)
    wants_json = (request.path.startswith("/api/")
                  and "text/html" not in request.headers.get("Accept", ""))
    if wants_json:
        response: HttpResponse = JsonResponse(
            {"detail": message, "retry_after": seconds}, status=429)
    else:
        response = render(request, "registration/locked_out.html", {
            "message": message, "login_url": request.path,
        }, status=429)
    response["Retry-After"] = str(seconds)
    return response
