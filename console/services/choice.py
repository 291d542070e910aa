"""Which service and domain a page, a job or a command works on when none is named."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet

from backoffice.annotations import RequestUser, StaffUser
from backoffice.operations.provider import ProviderNotConfigured
from console.models import Choice, Domain, Service, ServiceKind
from console.services.environment import (
    environment_bucket,
    environment_domain_name,
    environment_service,
)


def storage_services() -> QuerySet[Service]:
    return Service.objects.filter(kind=ServiceKind.STORAGE)


def default_service() -> Service:
    """The environment's service when one is configured, else the first storage service.

    ProviderNotConfigured when there is none at all, like a missing setting before.
    """
    if not environment_bucket() and not environment_domain_name():
        # Nothing in the environment to follow: its record (from an earlier configuration)
        # else the first storage service, in one read (every dashboard asks).
        service = (Service.objects.filter(Q(from_environment=True) | Q(kind=ServiceKind.STORAGE))
                   .order_by("-from_environment", "created_at", "pk").first())
    else:
        service = environment_service() or storage_services().order_by("created_at", "pk").first()
    if service is None:
        raise ProviderNotConfigured(
            "storage: set STORAGE_BUCKET in the environment or add a storage service")
    return service


def domain_of(service: Service) -> Domain | None:
    """The service's first domain (the environment's first), None when it has none."""
    return service.domains.order_by("-from_environment", "created_at", "pk").first()


def default_domain() -> Domain:
    """The default service's first domain; ProviderNotConfigured when there is none."""
    return _first_domain(default_service())


def _first_domain(service: Service) -> Domain:
    domain = domain_of(service)
    if domain is None:
        raise ProviderNotConfigured(
            "delivery: set DELIVERY_URL in the environment or add a domain to the service")
    return domain


# A page asks for the person's service or domain several times (each dashboard tile, its
# figures and its chart); the answer is kept on the request's user object for the request's
# life, and `choose` forgets it.
_MEMO = "_console_choice_memo"


def _memo(user: RequestUser | None) -> dict[str, Service | Domain | Choice | Exception | None]:
    """The person's answers so far, refusals included (a page without any service asks as
    often as one with)."""
    if user is None:
        return {}
    memo: dict[str, Service | Domain | Choice | Exception | None] = user.__dict__.setdefault(
        _MEMO, {})
    return memo


def _choice(user: StaffUser) -> Choice | None:
    """The person's choice row, read once a request with both its service and its domain (the
    storage tile asks for the one, the delivery tile for the other)."""
    memo = _memo(user)
    if "choice" not in memo:
        memo["choice"] = Choice.objects.filter(user=user).select_related(
            "service", "domain__service").first()
    found = memo["choice"]
    return found if isinstance(found, Choice) else None


def _default_service(user: RequestUser | None) -> Service:
    """default_service(), asked once a request: both the storage and the delivery tile fall
    back on it for a person who never chose."""
    memo = _memo(user)
    known = memo.get("default-service")
    if isinstance(known, Exception):
        raise known
    if isinstance(known, Service):
        return known
    try:
        found = default_service()
    except ProviderNotConfigured as refusal:
        memo["default-service"] = refusal
        raise
    memo["default-service"] = found
    return found


def chosen_service(user: RequestUser | None, *, kind: str = ServiceKind.STORAGE) -> Service:
    """The service of `kind` the person last chose, else the default one (for storage), else
    the first of that kind they may use. ProviderNotConfigured when the account has none;
    PermissionDenied when there are some but the person may use none of them."""
    memo = _memo(user)
    known = memo.get(f"service:{kind}")
    if isinstance(known, Exception):
        raise known
    if isinstance(known, Service):
        return known
    try:
        found = _chosen_service(user, kind)
    except (ProviderNotConfigured, PermissionDenied) as refusal:
        memo[f"service:{kind}"] = refusal
        raise
    memo[f"service:{kind}"] = found
    return found


def _chosen_service(user: RequestUser | None, kind: str) -> Service:
    if user is not None and user.is_authenticated:
        choice = _choice(user)
        if (choice is not None and choice.service is not None and choice.service.kind == kind
                and may_use(user, choice.service)):
            return choice.service
    if kind == ServiceKind.STORAGE:
        service = _default_service(user)
        if user is None or may_use(user, service):
            return service
    if user is None:
        found = Service.objects.filter(kind=kind).order_by("created_at", "pk").first()
        if found is None:
            raise ProviderNotConfigured(f"the account has no service of kind {kind}")
        return found
    allowed = visible_services(user, kind=kind)
    if allowed:
        return allowed[0]
    if Service.objects.filter(kind=kind).exists():
        raise PermissionDenied("no service of this kind is open to you")
    raise ProviderNotConfigured(f"the account has no service of kind {kind}")


def chosen_domain(user: StaffUser | None) -> Domain:
    """The domain the person last chose (of any service), else the default domain."""
    memo = _memo(user)
    known = memo.get("domain")
    if isinstance(known, Exception):
        raise known
    if isinstance(known, Domain):
        return known
    try:
        found = _chosen_domain(user)
    except (ProviderNotConfigured, PermissionDenied) as refusal:
        memo["domain"] = refusal
        raise
    memo["domain"] = found
    return found


def _chosen_domain(user: StaffUser | None) -> Domain:
    """The chosen domain if its service is open to the person, else the default domain if
    open, else the first domain of a service open to them."""
    if user is not None and user.is_authenticated:
        choice = _choice(user)
        if (choice is not None and choice.domain is not None
                and may_use(user, choice.domain.service)):
            return choice.domain
    domain = _first_domain(_default_service(user))
    if user is None or may_use(user, domain.service):
        return domain
    for service in visible_services(user):
        first = domain_of(service)
        if first is not None:
            return first
    raise PermissionDenied("no domain of a service open to you")


def choose(user: StaffUser, *, service: Service | None = None,
           domain: Domain | None = None) -> None:
    """Remember a choice: a domain implies its service; a service alone keeps the domain only
    when it belongs to that service. Every page that names its service calls this, so the row
    is written only when the choice changes."""
    user.__dict__.pop(_MEMO, None)
    choice = Choice.objects.filter(user=user).select_related("domain").first() or Choice(
        user=user)
    before = (choice.service_id, choice.domain_id)
    if domain is not None:
        choice.domain, choice.service = domain, domain.service
    elif service is not None:
        choice.service = service
        if choice.domain is not None and choice.domain.service_id != service.pk:
            choice.domain = domain_of(service)
    if choice.pk is None:  # two first choices at once: the later one wins, no duplicate row
        Choice.objects.update_or_create(
            user=user, defaults={"service": choice.service, "domain": choice.domain})
    elif (choice.service_id, choice.domain_id) != before:
        choice.save()


def may_use(user: RequestUser, service: Service) -> bool:
    """Whether the person may work on the service: superusers always; others when the service
    is limited to no group, or to one of theirs."""
    return user.is_superuser or _open_to(service, _group_ids(user))


def _group_ids(user: RequestUser) -> set[int]:
    return set(user.groups.values_list("pk", flat=True))


def _open_to(service: Service, group_ids: set[int]) -> bool:
    limited_to = {group.pk for group in service.groups.all()}
    return not limited_to or bool(limited_to & group_ids)


def visible_services(user: RequestUser, *, kind: str | None = None) -> list[Service]:
    """The services the person may work on, by name (of `kind` when given). Every storage and
    media page shows the switcher, so this costs two queries whatever the number of services:
    the services with their groups, and the person's groups once."""
    services = Service.objects.prefetch_related("groups").order_by("name")
    if kind is not None:
        services = services.filter(kind=kind)
    if user.is_superuser:
        return list(services)
    group_ids = _group_ids(user)
    return [service for service in services if _open_to(service, group_ids)]


class UnknownService(LookupError):
    """No service of that name and kind."""


def service_for(user: RequestUser | None, name: str | None, *,
                kind: str = ServiceKind.STORAGE, remember: bool = False) -> Service:
    """The service a request names (`name`), checked against the person's rights, and
    remembered as their choice when `remember`; without a name, their chosen service.

    `user` None is a command or a job, acting for the operator: no group limit applies.
    UnknownService for a name the account does not have; PermissionDenied for a service the
    person may not use."""
    if not name:
        return chosen_service(user, kind=kind)
    service = Service.objects.filter(name=name, kind=kind).first()
    if service is None and kind == ServiceKind.STORAGE and name == environment_bucket():
        service = environment_service()  # STORAGE_BUCKET's record, made on first use
    if service is None:
        raise UnknownService(name)
    if user is None:
        return service
    if not may_use(user, service):
        raise PermissionDenied(f"service {name} is not open to you")
    if remember and user.is_authenticated:
        choose(user, service=service)
    return service
