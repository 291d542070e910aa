"""What a signed-in session gets beyond Django's own: an absolute lifetime, and answers that no
cache keeps.

The idle limit (SESSION_IDLE_S, the cookie's age pushed on at every request) ends a forgotten
session, never an active one: a stolen or shared session cookie used every few hours would
live for ever. So the session keeps its sign-in time, and the first request after
SESSION_MAX_S ends it, whatever the activity in between.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import SESSION_KEY, logout
from django.http import HttpRequest, HttpResponseBase
from django.utils.translation import ngettext

from backoffice.operations.public_answers import is_same_for_everyone

SIGNED_IN_AT = "backoffice_signed_in_at"  # Unix seconds, written at every sign-in
# A cookie beside the session's, holding only the sign-in time (no secret): when the session
# has ended without a sign-out (idle, or past its lifetime) the sign-in page can say so, and
# why. Removed at sign-out, so a person who signed out is not told their session "ended".
SIGNED_IN_COOKIE = "backoffice_signed_in"
_SIGNED_OUT = "_backoffice_signed_out"
PRIVATE = "private, no-store"
_SAME_FOR_EVERYONE = "_backoffice_same_for_everyone"


def stamp_sign_in(sender: object, request: HttpRequest | None, **kwargs: object) -> None:
    """user_logged_in: the session's absolute lifetime starts now (every way in: the staff
    login, the admin's, the API's session login)."""
    if request is not None and hasattr(request, "session"):
        request.session[SIGNED_IN_AT] = int(time.time())


class SessionLifetimeMiddleware:
    """Ends a session SESSION_MAX_S after its sign-in (right after AuthenticationMiddleware,
    so nothing later sees the old person). The request goes on signed out: a page redirects
    to the login, the API answers as to anyone without credentials.

    A session signed in before this rule existed has no sign-in time: its clock starts at its
    next request, so nobody is signed out by the upgrade itself.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        session = request.session
        if SESSION_KEY in session:  # someone is signed in (reads the session only if a cookie came)
            started = session.get(SIGNED_IN_AT)
            now = int(time.time())
            if not isinstance(started, int):
                session[SIGNED_IN_AT] = now
            elif now - started >= settings.SESSION_MAX_S:
                logout(request)
        return self.get_response(request)


def note_sign_out(sender: object, request: HttpRequest | None, **kwargs: object) -> None:
    """user_logged_out: a sign-out the person asked for; the marker cookie goes with it."""
    if request is not None:
        request.__dict__[_SIGNED_OUT] = True


class SignedInMarkerMiddleware:
    """Keeps SIGNED_IN_COOKIE in step with the session: set (to the sign-in time) while
    someone is signed in, removed when they sign out. Left alone when the session ends by
    itself: that is what the sign-in page reads (`session_end_text`)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if request.__dict__.get(_SIGNED_OUT):
            response.delete_cookie(SIGNED_IN_COOKIE, samesite="Lax")
            return response
        started = request.session.get(SIGNED_IN_AT) if _signed_in(request) else None
        if isinstance(started, int) and request.COOKIES.get(SIGNED_IN_COOKIE) != str(started):
            response.set_cookie(SIGNED_IN_COOKIE, str(started), max_age=settings.SESSION_MAX_S,
                                secure=settings.SESSION_COOKIE_SECURE, httponly=True,
                                samesite="Lax")
        return response


def session_end_text(request: HttpRequest) -> str:
    """For the sign-in page: why the person's last session ended, when it ended by itself
    (empty otherwise): after SESSION_IDLE_S without a request, or SESSION_MAX_S after its
    sign-in."""
    if _signed_in(request):
        return ""
    try:
        started = int(request.COOKIES.get(SIGNED_IN_COOKIE, ""))
    except ValueError:
        return ""
    if time.time() - started >= settings.SESSION_MAX_S:
        days = max(1, settings.SESSION_MAX_S // 86400)
        hours = settings.SESSION_MAX_S // 3600
        if settings.SESSION_MAX_S >= 86400:
            return ngettext("Your session ended %(count)s day after you signed in. Sign in "
                            "again to go on.", "Your session ended %(count)s days after you "
                            "signed in. Sign in again to go on.", days) % {"count": days}
        return ngettext("Your session ended %(count)s hour after you signed in. Sign in again "
                        "to go on.", "Your session ended %(count)s hours after you signed in. "
                        "Sign in again to go on.", hours) % {"count": max(1, hours)}
    idle = settings.SESSION_IDLE_S
    if idle >= 3600:
        hours = idle // 3600
        return ngettext("Your session ended after %(count)s hour without activity. Sign in "
                        "again to go on.", "Your session ended after %(count)s hours without "
                        "activity. Sign in again to go on.", hours) % {"count": hours}
    minutes = max(1, idle // 60)
    return ngettext("Your session ended after %(count)s minute without activity. Sign in again "
                    "to go on.", "Your session ended after %(count)s minutes without activity. "
                    "Sign in again to go on.", minutes) % {"count": minutes}


class PrivateAnswersMiddleware:
    """`Cache-Control: private, no-store` on every answer to a signed-in person (pages, exports,
    downloads, the API with a session or a token) that does not set its own: what one person
    was shown must not be kept by a proxy, or by a shared computer's browser cache after they
    signed out. Views marked `same_for_everyone` are left alone, and static files never get
    here (WhiteNoise answers them earlier).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if ("Cache-Control" not in response and not request.__dict__.get(_SAME_FOR_EVERYONE)
                and _signed_in(request)):
            response["Cache-Control"] = PRIVATE
        return response

    def process_view(self, request: HttpRequest, view: Callable[..., object], *args: object,
                     **kwargs: object) -> None:
        request.__dict__[_SAME_FOR_EVERYONE] = is_same_for_everyone(view)


def _signed_in(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)  # DRF puts a token's user here too
    return user is not None and bool(user.is_authenticated)
