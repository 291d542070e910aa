"""Our own outage answers 503, not 500: while the database is unreachable, staff pages show a
"back in a moment" page in the layout, and the API and the provider's callback endpoint answer
503 JSON with `Retry-After`.

This is the site's `handler500`: Django calls it for any uncaught exception, from a view or a
middleware (the session, the signed-in user and the login guard all read the database before
a view runs), inside the `except` block, so the exception is at hand. A database error
(`OperationalError`, `InterfaceError`: the server is down, refuses or dropped the connection)
is answered 503 and logged once a minute per process, without a traceback per request
(`_has_been_logged` stops Django's own error line); anything else is the usual 500 page.

The page is rendered without the request's context processors: they read the signed-in user,
hence the database. Its layout shows no menus and no account.
"""

from __future__ import annotations

import sys

from django.contrib.auth.models import AnonymousUser
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext
from django.views import defaults

from backoffice.operations.once_a_minute import warn

# What a client is told to wait: a database restart or failover takes tens of seconds.
RETRY_AFTER_S = 30
CALLBACK_PATH = "/api/topup/callback/"


def is_database_outage(error: BaseException | None) -> bool:
    return isinstance(error, OperationalError | InterfaceError)


def server_error(request: HttpRequest) -> HttpResponse:
    error = sys.exc_info()[1]
    if not is_database_outage(error):
        return defaults.server_error(request)
    warn(__name__, "database", "database unavailable: answering 503 (%s: %s)",
         type(error).__name__, str(error).strip().splitlines()[0] if str(error) else "")
    response = database_unavailable(request)
    response._has_been_logged = True  # type: ignore[attr-defined]  # logged above, per minute
    return response


def database_unavailable(request: HttpRequest) -> HttpResponse:
    response: HttpResponse
    if request.path.startswith("/api/"):
        body: dict[str, object] = {
            "detail": gettext("The service is unavailable for a moment. Try again later."),
            "reason": "unavailable", "retry_after": RETRY_AFTER_S}
        if request.path == CALLBACK_PATH:
            body = {"info": "0", "error": "unavailable"}  # not stored: the provider sends again
        response = JsonResponse(body, status=503)
    else:
        response = HttpResponse(render_to_string("503.html", {
            "user": AnonymousUser(), "request": request}), status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    response["Cache-Control"] = "no-store"
    return response
