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

from backoffice.operations.public_answers import is_same_for_everyone

SIGNED_IN_AT = "backoffice_signed_in_at"  # Unix seconds, written at every sign-in
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
