"""The storage service tests' records belong to when no provider is configured."""

from __future__ import annotations

from console.models import Service, ServiceKind
from console.services import environment_service


def some_service() -> Service:
    """The environment's service when a test configured one (the `provider` fixture), else a
    storage service record of its own, as an account without STORAGE_* settings has."""
    found = environment_service()
    if found is not None:
        return found
    service, _created = Service.objects.get_or_create(
        name="demo-bucket", defaults={"kind": ServiceKind.STORAGE})
    return service
