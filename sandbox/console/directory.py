"""Who is who, for the services that authenticate or route requests: the storage services
with their operators, and every bound domain with its service.

Read on every storage, media, purge and edge request, so it is kept in memory as one snapshot
and rebuilt after any change: services, operators and domains change only through this
process (the console API and the control API), whose saves and deletes signal `changed`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from sandbox.console.models import Domain, Operator, Service


@dataclass(frozen=True)
class BoundDomain:
    name: str
    service: str  # the service's name (a bucket name for a storage service)
    business_type: str

    @property
    def is_file(self) -> bool:
        return self.business_type == Service.BusinessType.FILE


@dataclass(frozen=True)
class Snapshot:
    operators: dict[str, dict[str, str]]  # storage service -> operator -> password
    domains: dict[str, BoundDomain]  # host name -> its binding
    default_domain: BoundDomain | None  # the first storage service's first domain


_lock = threading.Lock()
_snapshot: Snapshot | None = None


def snapshot() -> Snapshot:
    global _snapshot
    current = _snapshot
    if current is not None:
        return current
    with _lock:
        if _snapshot is None:
            _snapshot = _load()
        return _snapshot


def _load() -> Snapshot:
    operators: dict[str, dict[str, str]] = {
        name: {} for name in Service.objects.filter(
            business_type=Service.BusinessType.FILE).values_list("name", flat=True)}
    for service, name, password in Operator.objects.values_list("service__name", "name",
                                                                "password"):
        if service in operators:
            operators[service][name] = password
    rows = Domain.objects.order_by("service__bucket_id", "id").values_list(
        "name", "service__name", "service__business_type")
    domains = {name: BoundDomain(name, service, kind) for name, service, kind in rows}
    default = next((bound for bound in domains.values() if bound.is_file), None)
    return Snapshot(operators, domains, default)


def changed(**_signal: object) -> None:
    forget()


def forget() -> None:
    global _snapshot
    with _lock:
        _snapshot = None


# --- questions ------------------------------------------------------------------------------


def is_storage_service(bucket: str) -> bool:
    return bucket in snapshot().operators


def storage_services() -> list[str]:
    return list(snapshot().operators)


def operator_password(bucket: str, operator: str) -> str | None:
    """The password of `operator` on the storage service `bucket`; None when it is not one of
    that service's operators (an operator of another bucket included)."""
    return snapshot().operators.get(bucket, {}).get(operator)


def bound_domain(host: str) -> BoundDomain | None:
    return snapshot().domains.get(host.lower().rstrip("."))


def default_domain() -> BoundDomain | None:
    return snapshot().default_domain


def domain_names() -> list[str]:
    return list(snapshot().domains)
