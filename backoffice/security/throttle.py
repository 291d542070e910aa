"""Login throttling on top of django-axes: 5 failures per user name or 20 per address.

Axes compares one failure count with one limit. Its per-parameter counts are kept apart here
(user name first, address second, as in AXES_LOCKOUT_PARAMETERS) and the address's count is
scaled onto the user-name limit, so that each reaches the lockout exactly at its own limit:
floor(n * USER_LIMIT / ADDRESS_LIMIT) >= USER_LIMIT holds exactly when n >= ADDRESS_LIMIT.

Every login that calls `django.contrib.auth.authenticate` with the request (the staff login,
the admin's, the API's session login) and every wrong second-factor code (see
`backoffice.security.otp`) goes through it.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_ip_address, get_client_username
from axes.models import AccessAttempt
from django.db.models import Max, Q, Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import ngettext

USER_LIMIT = 5
ADDRESS_LIMIT = 20
WINDOW = timedelta(minutes=15)


class StaffLoginHandler(AxesDatabaseHandler):
    """Axes's database handler with separate limits per user name and per address."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        by_user, by_address = (
            attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        )
        return max(by_user, by_address * USER_LIMIT // ADDRESS_LIMIT)


def retry_at(request: HttpRequest, credentials: dict[str, Any] | None) -> datetime:
    """When the lockout of this user name or address ends: the cool-off after the latest
    failure that counts (failures during a lockout do not push it on, see settings)."""
    username = get_client_username(request, credentials)
    address = getattr(request, "axes_ip_address", None) or get_client_ip_address(request)
    matching = Q(ip_address=address)
    if username:
        matching |= Q(username=username)
    latest = AccessAttempt.objects.filter(matching).aggregate(at=Max("attempt_time"))["at"]
    return (latest or timezone.now()) + WINDOW


def lockout_message(until: datetime) -> str:
    minutes = max(1, math.ceil((until - timezone.now()).total_seconds() / 60))
    return ngettext(
        "Too many failed sign-ins for this user name or from this address. Try again after "
        "%(time)s (in %(minutes)d minute).",
        "Too many failed sign-ins for this user name or from this address. Try again after "
        "%(time)s (in %(minutes)d minutes).",
        minutes,
    ) % {"time": date_format(timezone.localtime(until), "H:i"), "minutes": minutes}


def lockout_response(request: HttpRequest, original_response: object = None,
                     credentials: dict[str, Any] | None = None) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: 429 with Retry-After; JSON for API clients, a page otherwise."""
    until = retry_at(request, credentials)
    seconds = max(1, math.ceil((until - timezone.now()).total_seconds()))
    message = lockout_message(until)
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

