"""The edge's certificates by name, for the HTTPS port (sandbox.core.tls_server).

A name (SNI) gets its domain's bound certificate only when the domain has HTTPS access on and
a certificate (`https_access`, `https_certificate`, set by the console's `https` section);
otherwise None, and the server refuses the handshake. A context per certificate is built once
and kept (ids are never reused).
"""

from __future__ import annotations

import os
import ssl
import tempfile
import threading

from sandbox.console.models import Certificate
from sandbox.delivery.config import published

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


def forget() -> None:
    with _lock:
        _contexts.clear()
