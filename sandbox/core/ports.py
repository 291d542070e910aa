"""One port per service: base + the service's offset (see ARCHITECTURE.md)."""

from __future__ import annotations

from django.conf import settings

SERVICES = ("control", "sms", "topup", "storage", "media", "delivery", "purge")
FAULT_SERVICES = SERVICES[1:]

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


def all_ports() -> dict[str, int]:
    return {service: port_of(service) for service in SERVICES}
