"""A threaded TLS server for one WSGI application, choosing the certificate by SNI.

waitress speaks no TLS, so the edge's HTTPS port (`delivery_https_url`, base port + 9) is this
small server of the standard library (`wsgiref` over `socketserver.ThreadingMixIn`): it serves
the same WSGI application as the delivery port, as if the request had arrived there
(`SERVER_PORT`), with `wsgi.url_scheme` https. One connection, one request (HTTP/1.0 answers,
as wsgiref gives); each connection's handshake runs in its own thread, never in the accepting
one.

The certificate comes from the chooser the edge registers (`register_chooser`, sandbox.delivery
.tls): given the name the client sent (SNI), a server context, or None to refuse the handshake
with the `unrecognized_name` alert (as is a client that names no server).
"""

from __future__ import annotations

import logging
import socket
import ssl
import threading
from collections.abc import Callable
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from django.db import connections

logger = logging.getLogger("sandbox")
HANDSHAKE_TIMEOUT_S = 10
REFUSED = ssl.ALERT_DESCRIPTION_UNRECOGNIZED_NAME
Chooser = Callable[[str | None], ssl.SSLContext | None]
_choosers: list[Chooser] = []


def register_chooser(chooser: Chooser) -> None:
    if chooser not in _choosers:
        _choosers.append(chooser)


def choose(connection: ssl.SSLObject | ssl.SSLSocket, server_name: str | None,
           base: ssl.SSLContext) -> int | None:
    """The `sni_callback`: switch to the name's context, or abort the handshake."""
    context = None
    for chooser in _choosers:
        try:
            context = chooser(server_name)
        except Exception:  # a broken stored certificate refuses its name, never the port
            logger.exception("TLS: no context for %r", server_name)
        if context is not None:
            break
    if context is None:
        return REFUSED
    connection.context = context
    return None


def server_context() -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.sni_callback = choose
    return context


class _Handler(WSGIRequestHandler):
    def get_environ(self) -> dict[str, Any]:
        environ: dict[str, Any] = super().get_environ()
        environ["HTTPS"] = "on"  # wsgiref's handler then sets wsgi.url_scheme to https
        environ["SERVER_PORT"] = str(self.server.served_port)  # type: ignore[attr-defined]
        return environ

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        logger.debug("https %s - " + format, self.address_string(), *args)


class TlsServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, host: str, port: int, served_port: int, application: Any) -> None:
        self.served_port = served_port
        self.tls = server_context()
        super().__init__((host, port), _Handler)
        self.set_app(application)

    def get_request(self) -> tuple[socket.socket, Any]:
        raw, address = self.socket.accept()
        wrapped = self.tls.wrap_socket(raw, server_side=True, do_handshake_on_connect=False)
        return wrapped, address

    def finish_request(self, request: Any, client_address: Any) -> None:
        try:
            request.settimeout(HANDSHAKE_TIMEOUT_S)
            request.do_handshake()
            request.settimeout(None)
            super().finish_request(request, client_address)
        except (ssl.SSLError, OSError):
            pass  # a refused name, a client that gave up: nothing to answer
        finally:
            connections.close_all()  # this thread's database connection ends with it

    def handle_error(self, request: Any, client_address: Any) -> None:
        logger.debug("https: connection from %s failed", client_address, exc_info=True)


def start(host: str, port: int, served_port: int, application: Any) -> TlsServer:
    """Listen on `port`, serving `application` as if on `served_port`, in a daemon thread."""
    server = TlsServer(host, port, served_port, application)
    threading.Thread(target=server.serve_forever, name="tls-server", daemon=True).start()
    return server
