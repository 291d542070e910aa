"""WSGI entry point of the sandbox, with the connection-dropping fault.

Django turns every exception into a 500 answer, so a fault that must close the connection
without any answer is flagged in the environ by the fault middleware and carried out here:
waitress closes a connection without writing anything when the application raises OSError
(with log_socket_errors off).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sandbox.settings")

DROP_KEY = "sandbox.drop_connection"
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class ConnectionDropped(ConnectionAbortedError):
    """Raised to the server to close the client's connection unanswered."""


def drop_capable(app: WSGIApp) -> WSGIApp:
    """Hold back start_response until the app has run, so the answer can still be dropped."""

    def wrapped(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        captured: list[tuple[Any, ...]] = []

        def capture(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            captured.append((status, headers, exc_info))
            return lambda data: None  # Django never uses the legacy write() callable

        body = app(environ, capture)
        if environ.get(DROP_KEY):
            if hasattr(body, "close"):
                body.close()
            raise ConnectionDropped("injected fault: connection dropped")
        start_response(*captured[0])
        return body

    return wrapped


application = drop_capable(get_wsgi_application())
