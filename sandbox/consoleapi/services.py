"""Services and domains as the console and the control API change them.

Unbinding a domain (or deleting its service) drops its edge settings and cached entries, so
the same name bound again starts afresh.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from sandbox.console.models import Domain, Operator, Service
from sandbox.consoleapi import fields
from sandbox.consoleapi.errors import CONFLICT, NOT_APPLICABLE, NOT_FOUND, ConsoleError, bad_field
from sandbox.core import clock
from sandbox.delivery import config
from sandbox.delivery.cache import EDGE_CACHE


def service_json(service: Service) -> dict[str, Any]:
    return {"bucket_id": service.bucket_id, "bucket_name": service.name,
            "business_type": service.business_type, "status": "enabled",
            "created_at": int(service.created_at),
            "domains": [domain.name for domain in service.domains.all()],
            "line": service.line}


def find(name: str) -> Service:
    service = Service.objects.filter(name=name).first()
    if service is None:
        raise ConsoleError(NOT_FOUND, f"no service named {name!r}")
    return service


def find_cdn(name: str) -> Service:
    service = find(name)
    if service.is_file:
        raise ConsoleError(NOT_APPLICABLE, f"{name} is a storage service: origins and mirror "
                                           "storage belong to CDN services")
    return service


def bind(service: Service, name: str) -> Domain:
    """Bind `name` to `service` (a no-op when it is bound there already); 10409 when another
    service holds it."""
    existing = Domain.objects.filter(name=name).select_related("service").first()
    if existing is not None:
        if existing.service_id == service.bucket_id:
            return existing
        raise ConsoleError(CONFLICT, f"{name} is bound to another service "
                                     f"({existing.service.name})")
    try:
        with transaction.atomic():
            return Domain.objects.create(service=service, name=name, created_at=clock.now())
    except IntegrityError:  # bound meanwhile by another request
        raise ConsoleError(CONFLICT, f"{name} is bound to another service") from None


def unbind(service: Service, name: str) -> None:
    domain = Domain.objects.filter(service=service, name=name).first()
    if domain is None:
        raise ConsoleError(NOT_FOUND, f"{name} is not a domain of {service.name}")
    domain.delete()
    forget_domain(name)


def forget_domain(name: str) -> None:
    config.drop(name)
    EDGE_CACHE.clear_domain(name)


def create(body: dict[str, Any]) -> Service:
    """A service from the control API: name, business_type, operators {name: password},
    domains [...], origins [...] (cdn), line (file)."""
    name = fields.service_name(body, "name")
    kind = body.get("business_type")
    if kind not in Service.BusinessType.values:
        raise bad_field("business_type", "must be file or cdn")
    line = fields.line(body)
    if kind == Service.BusinessType.CDN and line != "auto":
        raise bad_field("line", "a CDN service's line is always auto")
    operators = body.get("operators") or {}
    if not isinstance(operators, dict) or not all(
            isinstance(key, str) and key and isinstance(value, str) and value
            for key, value in operators.items()):
        raise bad_field("operators", "must be an object {operator name: password}")
    if operators and kind != Service.BusinessType.FILE:
        raise bad_field("operators", "only a storage service (file) has operators")
    domains = body.get("domains") or []
    if not isinstance(domains, list):
        raise bad_field("domains", "must be a list of host names")
    names = [fields.domain_name(domain, f"domains[{index}]")
             for index, domain in enumerate(domains)]
    origins: list[dict[str, Any]] = []
    if body.get("origins") not in (None, []):
        if kind != Service.BusinessType.CDN:
            raise bad_field("origins", "only a CDN service has origins")
        origins = fields.origins(body["origins"])
    with transaction.atomic():
        if Service.objects.filter(name=name).exists():
            raise ConsoleError(CONFLICT, f"a service named {name} exists", "name")
        service = Service.objects.create(name=name, business_type=kind, line=line,
                                         origins=origins, created_at=clock.now())
        for operator, password in operators.items():
            Operator.objects.create(service=service, name=operator, password=password)
        for domain in names:
            bind(service, domain)
    return service


def delete(service: Service) -> None:
    names = [domain.name for domain in service.domains.all()]
    service.delete()
    for name in names:
        forget_domain(name)
