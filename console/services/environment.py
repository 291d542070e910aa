"""The service and domain described by the environment (`STORAGE_*`, `DELIVERY_*`).

On first use they become records marked `from_environment`, so that files, jobs, rule sets and
purges can belong to them like to any other service; their address and credentials are still
read from the environment at every use, so the variables keep working as before. The records'
names follow the variables if these change (a renamed bucket is the same service to us).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction

from console.models import Domain, Service, ServiceKind


def environment_bucket() -> str:
    return str(settings.PROVIDER["storage"].get("bucket") or "")


def environment_domain_name() -> str:
    url = str(settings.PROVIDER["delivery"].get("delivery_url") or "")
    return (urlsplit(url).hostname or "").lower() if url else ""


def environment_service(*, create: bool = True) -> Service | None:
    """The environment's storage service, created (or renamed to follow STORAGE_BUCKET) here.

    None when no bucket is configured and no such record exists yet (or `create` is False).
    Every page asks, so the usual case (records in step with the variables) costs two plain
    reads; only a creation or a rename takes the lock.
    """
    bucket = environment_bucket()
    service = Service.objects.filter(from_environment=True).first()
    if service is not None and (not bucket or service.name == bucket) and _domain_in_step():
        return service
    if service is None and (not bucket or not create):
        return None
    return _bring_in_step(bucket)


def _domain_in_step() -> bool:
    """Whether the environment's domain record has DELIVERY_URL's name (trivially, without
    DELIVERY_URL: there is nothing to follow)."""
    name = environment_domain_name()
    if not name:
        return True
    return Domain.objects.filter(from_environment=True, name=name).exists()


@transaction.atomic
def _bring_in_step(bucket: str) -> Service | None:
    service = Service.objects.select_for_update().filter(from_environment=True).first()
    if service is None:
        if not bucket:
            return None
        service = Service.objects.filter(name=bucket).first()
        if service is not None:  # staff added it by hand first: the environment takes it over
            service.from_environment = True
            service.save(update_fields=["from_environment", "updated_at"])
        else:
            service = Service.objects.create(name=bucket, kind=ServiceKind.STORAGE,
                                             from_environment=True)
    elif bucket and service.name != bucket and not Service.objects.filter(name=bucket).exists():
        service.name = bucket
        service.save(update_fields=["name", "updated_at"])
    ensure_environment_domain(service)
    return service


def ensure_environment_domain(service: Service) -> Domain | None:
    """The domain of DELIVERY_URL on the environment's service (created, or renamed)."""
    name = environment_domain_name()
    domain = Domain.objects.filter(from_environment=True).first()
    if domain is None:
        if not name:
            return None
        domain = Domain.objects.filter(name=name).first()
        if domain is not None:
            domain.from_environment = True
            domain.save(update_fields=["from_environment"])
            return domain
        return Domain.objects.create(service=service, name=name, from_environment=True)
    if name and domain.name != name and not Domain.objects.filter(name=name).exists():
        domain.name = name
        domain.save(update_fields=["name"])
    return domain
