"""The edge's HTTPS port (`delivery_https_url`, base port + 9): real TLS with SNI.

waitress speaks no TLS, so this is a small threaded server of the standard library
(`wsgiref` over `socketserver.ThreadingMixIn`) serving the same WSGI application as the
delivery port, with `wsgi.url_scheme` https: the edge pipeline (views.py) sees the request as
HTTPS. One connection, one request (HTTP/1.0 answers, as wsgiref gives); each connection's
handshake runs in its own thread, never in the accepting one.

The certificate is chosen per name the client sends (SNI): the name's domain must have HTTPS
access on and a bound certificate (`https_access`, `https_certificate`, set by the console's
`https` section); otherwise the handshake is refused with the `unrecognized_name` alert, as is
a client that names no server. A context per certificate is built once and kept.
"""

from __future__ import annotations

import logging
import os
import socket
import ssl
import tempfile
import threading
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from django.db import connections

from sandbox.console.models import Certificate
from sandbox.delivery.config import published

logger = logging.getLogger("sandbox")
HANDSHAKE_TIMEOUT_S = 10
REFUSED = ssl.ALERT_DESCRIPTION_UNRECOGNIZED_NAME

_lock = threading.Lock()
_contexts: dict[str, ssl.SSLContext] = {}  # certificate id -> server context


def context_for(server_name: str | None) -> ssl.SSLContext | None:
    """The server context of the name's bound certificate; None refuses the name."""
    if not server_name:
        return None
    data = published(server_name.lower().rstrip(".")).data
    identifier = str(data.get("https_certificate") or "")
    if not data.get("https_access") or not identifier:
        return None
    with _lock:
        found = _contexts.get(identifier)
    if found is not None:
        return found
    row = Certificate.objects.filter(certificate_id=identifier).first()
    if row is None:
        return None
    context = _load(row.certificate, row.private_key)
    with _lock:
        _contexts[identifier] = context
    return context


def _load(chain: str, key: str) -> ssl.SSLContext:
    """`load_cert_chain` reads files only: the PEM goes through an owner-only temporary file,
    removed at once."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    descriptor, path = tempfile.mkstemp(suffix=".pem")
    try:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(chain.strip() + "\n" + key.strip() + "\n")
        context.load_cert_chain(path)
    finally:
        os.unlink(path)
    return context


def choose(connection: ssl.SSLObject | ssl.SSLSocket, server_name: str | None,
           base: ssl.SSLContext) -> int | None:
    """The `sni_callback`: switch to the name's context, or abort the handshake."""
    try:
        context = context_for(server_name)
    except Exception:  # a broken stored certificate refuses its name, never the port
        logger.exception("TLS: no context for %r", server_name)
        context = None
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
        environ["SERVER_PORT"] = str(self.server.delivery_port)  # type: ignore[attr-defined]
        return environ

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        logger.debug("https %s - " + format, self.address_string(), *args)


class TlsServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, host: str, port: int, delivery_port: int, application: Any) -> None:
        self.delivery_port = delivery_port
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


def start(host: str, port: int, delivery_port: int, application: Any) -> TlsServer:
    server = TlsServer(host, port, delivery_port, application)
    threading.Thread(target=server.serve_forever, name="edge-https", daemon=True).start()
    return server


def forget() -> None:
    with _lock:
        _contexts.clear()
