"""The services as records: the provider's list read in, staff's storage services saved after
their operator is checked, and a service removed only when nothing refers to it.

Services are created in the provider's console by a person, never by the back-office (the
console API has no call for it): "refresh from the provider" makes the records, "add" records
one that the account has. Removing a record forgets it here only; the provider keeps it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, transaction
from django.db.models import Model, ProtectedError, RestrictedError
from django.db.models.deletion import Collector
from django.utils import timezone

from backoffice.annotations import StaffUser
from backoffice.security.audit import audited
from console.models import Domain, EntryLine, Service, ServiceKind
from console.services.connection import console_client
from console.services.credentials import check_operator


@dataclass(frozen=True)
class Listed:
    """What a refresh found: services new to us, services already known, domains added."""

    new: int
    known: int
    domains: int


@audited("console", "services.refresh",
         lambda user: (None, "services read from the provider", user),)
def refresh_from_provider(user: StaffUser | None) -> Listed:
    """Read every service of the account (all pages of GET /buckets): new ones become records
    without credentials (a storage service then needs an operator), every listed one gets
    `provider_seen_at`, and the domains the provider binds are recorded. ConsoleError or
    ProviderNotConfigured when the console cannot be read (nothing is changed then)."""
    listed = list(console_client().all_services())
    now = timezone.now()
    new = known = domains = 0
    with transaction.atomic():
        for item in listed:
            kind = ServiceKind.CDN if item.business_type == "cdn" else ServiceKind.STORAGE
            line = item.line if item.line in EntryLine.values else EntryLine.AUTO
            service = Service.objects.filter(name=item.name).first()
            if service is None:
                service = Service.objects.create(name=item.name, kind=kind, line=line,
                                                 provider_seen_at=now, updated_by=user)
                new += 1
            else:
                service.provider_seen_at = now
                service.save(update_fields=["provider_seen_at", "updated_at"])
                known += 1
            for name in item.domains:
                if not Domain.objects.filter(name=name).exists():
                    Domain.objects.create(service=service, name=name)
                    domains += 1
    return Listed(new, known, domains)


def _describe_save(service: Service | None, values: dict[str, Any], user: StaffUser,
                   **_: object) -> tuple[object, str, StaffUser]:
    # The password is never part of an audit entry: only whether it changed.
    changed = sorted(key for key in values if key != "operator_password")
    if values.get("operator_password"):
        changed.append("operator_password (new)")
    name = service.name if service is not None else values.get("name", "")
    verb = "storage service changed" if service is not None else "storage service added"
    return (service if service is not None else name, f"{verb}: {name}: {', '.join(changed)}",
            user)


@audited("console", "service.save", _describe_save)
def save_storage_service(service: Service | None, values: dict[str, Any],
                         user: StaffUser) -> Service:
    """Create (`service` None) or change a storage service. An empty `operator_password` keeps
    the stored one. The operator is checked by a real storage call whenever the operator,
    password or line changes; OperatorRefused then, and nothing is stored."""
    target = service if service is not None else Service(kind=ServiceKind.STORAGE)
    password = values.get("operator_password") or ""
    credentials_changed = bool(password) or service is None or any(
        getattr(service, field) != values.get(field, getattr(service, field))
        for field in ("operator", "line"))
    for field in ("name", "label", "operator", "line"):
        if field in values:
            setattr(target, field, values[field])
    if password:
        target.operator_password = password
    if target.operator and target.operator_password and credentials_changed:
        check_operator(target, target.operator, target.operator_password)
    target.updated_by = user
    target.save()
    if "groups" in values:  # the per-service limit: empty lets every group with access in
        target.groups.set(values["groups"])
    return target


@dataclass(frozen=True)
class Reference:
    """Records of one kind that keep a service: the model's verbose name and how many."""

    name: str
    count: int


def blockers(objects: list[Model], *, ignore: set[Model] | None = None) -> list[Reference]:
    """What keeps `objects` from being deleted: every protected record pointing at one of
    them, counted by model (verbose name), found by Django's deletion collector, so the
    console app needs to know none of the apps that refer to services and domains."""
    found: Counter[str] = Counter()
    for start in objects:
        collector = Collector(using=DEFAULT_DB_ALIAS)
        try:
            collector.collect([start])
        except (ProtectedError, RestrictedError) as error:
            held = (error.protected_objects if isinstance(error, ProtectedError)
                    else error.restricted_objects)
            for blocker in held:
                if ignore is None or blocker not in ignore:
                    found[str(blocker._meta.verbose_name_plural)] += 1
    return [Reference(name, count) for name, count in sorted(found.items())]


def references(service: Service) -> list[Reference]:
    """What refers to the service or one of its domains (its own domains, removed with it,
    aside): files, uploads, jobs, rule sets, purges... of any app."""
    domains: list[Model] = list(service.domains.all())
    return blockers([*domains, service], ignore=set(domains))


class InUse(Exception):
    def __init__(self, found: list[Reference]) -> None:
        super().__init__(", ".join(f"{ref.name}: {ref.count}" for ref in found))
        self.found = found


@audited("console", "service.remove",
         lambda service, user: (service, f"service record removed: {service.name}", user))
def remove_service(service: Service, user: StaffUser) -> None:
    """Forget the service here (with its origins and domains); InUse naming what refers to it.
    The provider keeps the service and its domains."""
    if service.from_environment:
        raise InUse([])
    found = references(service)
    if found:
        raise InUse(found)
    with transaction.atomic():
        service.domains.all().delete()
        service.delete()
