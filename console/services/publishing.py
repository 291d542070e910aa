"""Origins and domains, kept here and published to the provider's console.

The local record is written first; then the console is called. A call that fails leaves the
record marked "not published" with the console's answer (a person can read it and retry), and
the audit entry says it failed; a retry publishes what the record holds. The origin list is
one resource at the console (`PUT /buckets/origins` replaces it), so its state is the
service's; each domain has its own.
"""

from __future__ import annotations

from django.db import transaction

from backoffice.annotations import StaffUser
from backoffice.models import AuditOutcome
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.audit import audited, record
from console.client import ConsoleError, NotFound, OriginAddress
from console.models import Domain, Origin, PublishState, Service
from console.services.connection import console_client
from console.services.records import InUse, blockers

FAILURES = (ConsoleError, ProviderNotConfigured)


def _answer(error: Exception) -> str:
    return str(error)[:500]


# --- origins ------------------------------------------------------------------------------------


def publish_origins(service: Service, user: StaffUser | None) -> bool:
    """Send the service's origin list to the console; True when it took it."""
    origins = [OriginAddress(origin.address, origin.weight, origin.backup)
               for origin in service.origins.order_by("position", "pk")]
    try:
        console_client().put_origins(service.name, origins)
    except FAILURES as error:
        service.origins_state, service.origins_error = PublishState.FAILED, _answer(error)
        outcome, summary = AuditOutcome.FAILED, f"origins not published: {error}"
    else:
        service.origins_state, service.origins_error = PublishState.PUBLISHED, ""
        outcome, summary = AuditOutcome.OK, f"origins published: {len(origins)}"
    service.save(update_fields=["origins_state", "origins_error", "updated_at"])
    record("console", "origins.publish", target=service, summary=summary, outcome=outcome,
           user=user)
    return outcome == AuditOutcome.OK


@audited("console", "origin.add",
         lambda service, address, weight, backup, user: (
             service, f"origin added: {address} weight {weight}{' backup' if backup else ''}",
             user))
def add_origin(service: Service, address: str, weight: int, backup: bool,
               user: StaffUser) -> bool:
    """Record the origin and publish the list; True when the console took it."""
    with transaction.atomic():
        last = service.origins.order_by("-position").values_list("position", flat=True).first()
        Origin.objects.create(service=service, address=address, weight=weight, backup=backup,
                              position=(last or 0) + 1)
        service.origins_state = PublishState.PENDING
        service.save(update_fields=["origins_state", "updated_at"])
    return publish_origins(service, user)


class LastOrigin(Exception):
    """A CDN service keeps at least one origin that is not a backup."""


@audited("console", "origin.remove",
         lambda origin, user: (origin.service, f"origin removed: {origin.address}", user))
def remove_origin(origin: Origin, user: StaffUser) -> bool:
    service = origin.service
    if not service.origins.exclude(pk=origin.pk).filter(backup=False).exists():
        raise LastOrigin(origin.address)
    origin.delete()
    return publish_origins(service, user)


# --- domains ------------------------------------------------------------------------------------


def publish_domain(domain: Domain, user: StaffUser | None) -> bool:
    """Bind the domain to its service at the console; True when it is bound."""
    try:
        console_client().bind_domain(domain.service.name, domain.name)
    except FAILURES as error:
        domain.publish_state, domain.publish_error = PublishState.FAILED, _answer(error)
        outcome, summary = AuditOutcome.FAILED, f"domain not bound: {error}"
    else:
        domain.publish_state, domain.publish_error = PublishState.PUBLISHED, ""
        outcome, summary = AuditOutcome.OK, f"domain bound to {domain.service.name}"
    domain.save(update_fields=["publish_state", "publish_error"])
    record("console", "domain.publish", target=domain, summary=summary, outcome=outcome,
           user=user)
    return outcome == AuditOutcome.OK


@audited("console", "domain.add",
         lambda service, name, user: (service, f"domain added: {name}", user))
def add_domain(service: Service, name: str, user: StaffUser) -> tuple[Domain, bool]:
    domain = Domain.objects.create(service=service, name=name,
                                   publish_state=PublishState.PENDING)
    return domain, publish_domain(domain, user)


class UnbindFailed(Exception):
    """The console did not unbind the domain; the record is kept, with its answer."""


@audited("console", "domain.remove",
         lambda domain, user: (domain.service, f"domain removed: {domain.name}", user))
def remove_domain(domain: Domain, user: StaffUser) -> None:
    """Unbind at the console, then forget it here. InUse when records of other apps refer to
    it (its rule sets, purges...); UnbindFailed when the console refused (a domain the console
    does not know is already unbound)."""
    if domain.from_environment:
        raise InUse([])
    found = blockers([domain])
    if found:
        raise InUse(found)
    if domain.publish_state == PublishState.PUBLISHED:
        try:
            console_client().unbind_domain(domain.service.name, domain.name)
        except NotFound:
            pass
        except FAILURES as error:
            domain.publish_state, domain.publish_error = PublishState.FAILED, _answer(error)
            domain.save(update_fields=["publish_state", "publish_error"])
            raise UnbindFailed(str(error)) from error
    domain.delete()


