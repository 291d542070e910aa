"""Which service and domain a page, a job or a command works on when none is named."""

from __future__ import annotations

from django.db.models import QuerySet

from backoffice.annotations import StaffUser
from backoffice.operations.provider import ProviderNotConfigured
from console.models import Choice, Domain, Service, ServiceKind
from console.services.environment import environment_service


def storage_services() -> QuerySet[Service]:
    return Service.objects.filter(kind=ServiceKind.STORAGE)


def default_service() -> Service:
    """The environment's service when one is configured, else the first storage service.

    ProviderNotConfigured when there is none at all, like a missing setting before.
    """
    service = environment_service()
    if service is None:
        service = storage_services().order_by("created_at", "pk").first()
    if service is None:
        raise ProviderNotConfigured(
            "storage: set STORAGE_BUCKET in the environment or add a storage service")
    return service


def domain_of(service: Service) -> Domain | None:
    """The service's first domain (the environment's first), None when it has none."""
    return service.domains.order_by("-from_environment", "created_at", "pk").first()


def default_domain() -> Domain:
    """The default service's first domain; ProviderNotConfigured when there is none."""
    domain = domain_of(default_service())
    if domain is None:
        raise ProviderNotConfigured(
            "delivery: set DELIVERY_URL in the environment or add a domain to the service")
    return domain


def chosen_service(user: StaffUser | None, *, kind: str = ServiceKind.STORAGE) -> Service:
    """The service of `kind` the person last chose, else the default one (for storage) or the
    first of that kind. ProviderNotConfigured when the account has none."""
    if user is not None and user.is_authenticated:
        choice = Choice.objects.filter(user=user).select_related("service").first()
        if choice is not None and choice.service is not None and choice.service.kind == kind:
            return choice.service
    if kind == ServiceKind.STORAGE:
        return default_service()
    service = Service.objects.filter(kind=kind).order_by("created_at", "pk").first()
    if service is None:
        raise ProviderNotConfigured("delivery: the account has no CDN service")
    return service


def chosen_domain(user: StaffUser | None) -> Domain:
    """The domain the person last chose (of any service), else the default domain."""
    if user is not None and user.is_authenticated:
        choice = Choice.objects.filter(user=user).select_related("domain__service").first()
        if choice is not None and choice.domain is not None:
            return choice.domain
    return default_domain()


def choose(user: StaffUser, *, service: Service | None = None,
           domain: Domain | None = None) -> None:
    """Remember a choice: a domain implies its service; a service alone keeps the domain only
    when it belongs to that service."""
    choice, _created = Choice.objects.get_or_create(user=user)
    if domain is not None:
        choice.domain, choice.service = domain, domain.service
    elif service is not None:
        choice.service = service
        if choice.domain is not None and choice.domain.service_id != service.pk:
            choice.domain = domain_of(service)
    choice.save()
