"""One port per service: base + the service's offset (see ARCHITECTURE.md)."""

from __future__ import annotations

from django.conf import settings

# The console (the provider's management API) is last, at +7, so the older offsets stay put.
SERVICES = ("control", "sms", "topup", "storage", "media", "delivery", "purge", "console")
FAULT_SERVICES = SERVICES[1:]
# The edge's HTTPS port (sandbox.delivery.tls) is no service of its own: it serves the delivery
# port's requests over TLS. It sits at +9, as +8 is the demo origin's under `make run`.
HTTPS_OFFSET = 9

_base_port: int | None = None


def configure(base_port: int) -> None:
    global _base_port
    _base_port = base_port


def base_port() -> int:
    return _base_port if _base_port is not None else settings.SANDBOX_BASE_PORT


def port_of(service: str) -> int:
    return base_port() + SERVICES.index(service)


def service_of_port(port: int) -> str | None:
    offset = port - base_port()
    return SERVICES[offset] if 0 <= offset < len(SERVICES) else None


def https_port() -> int:
    return base_port() + HTTPS_OFFSET


def all_ports() -> dict[str, int]:
    return {service: port_of(service) for service in SERVICES}


# The storage API's entry addresses (DECISIONS: a storage service's "line"): the storage port
# listens on each of them when the sandbox is bound to 127.0.0.1, and a request is counted
# against the line of the local address it arrived on.
STORAGE_LINES = {"auto": "127.0.0.1", "telecom": "127.0.0.2", "unicom": "127.0.0.3",
                 "cmcc": "127.0.0.4"}
LINE_OF_ADDRESS = {address: line for line, address in STORAGE_LINES.items()}


def storage_line_addresses(host: str) -> dict[str, str]:
    """Line -> address the storage port listens on: the four loopback lines when bound to
    127.0.0.1, else the one host as `auto` (no other address is known to be ours)."""
    if host == STORAGE_LINES["auto"]:
        return dict(STORAGE_LINES)
    return {"auto": host}
