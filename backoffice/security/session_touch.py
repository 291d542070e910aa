"""The idle limit pushed on without writing the session at every request.

A session ends SESSION_IDLE_S after its last request (the cookie's age and the row's expiry).
Django's SESSION_SAVE_EVERY_REQUEST keeps that exact by rewriting the session row on every
answer: three queries a page (a transaction around an UPDATE), paid by every page and every
poll of a progress bar. Here the session is written again only when its last write is
SESSION_TOUCH_S old, so the limit is exact to within that interval: an idle limit of hours
does not need to be exact to the second.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.http import HttpRequest, HttpResponseBase

TOUCHED_AT = "backoffice_touched_at"  # Unix seconds of the session's last write by this rule


class SessionTouchMiddleware:
    """Marks a signed-in session modified (so SessionMiddleware saves it, pushing the expiry of
    the row and of the cookie on) when it was last touched SESSION_TOUCH_S ago or more, or
    never. Anonymous sessions are left alone: they hold nothing worth keeping alive."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        session = request.session
        if SESSION_KEY in session:
            now = int(time.time())
            touched = session.get(TOUCHED_AT)
            if not isinstance(touched, int) or now - touched >= settings.SESSION_TOUCH_S:
                session[TOUCHED_AT] = now
        return self.get_response(request)
