"""Use cases of the console app, the only module other apps and the pages import.

- `environment`: the service and domain of `STORAGE_*` / `DELIVERY_*` as records;
- `access`: the address and credentials of a service or domain, ready for a client;
- `choice`: the default service and domain, and the ones a person chose.
"""

from __future__ import annotations

from console.services.access import (
    DomainAccess,
    StorageAccess,
    domain_access,
    line_url,
    storage_access,
)
from console.services.choice import (
    UnknownService,
    choose,
    chosen_domain,
    chosen_service,
    default_domain,
    default_service,
    domain_of,
    may_use,
    service_for,
    storage_services,
    visible_services,
)
from console.services.environment import environment_service

__all__ = [
    "choose",
    "chosen_domain",
    "chosen_service",
    "DomainAccess",
    "StorageAccess",
    "default_domain",
    "default_service",
    "domain_access",
    "domain_of",
    "environment_service",
    "line_url",
    "storage_access",
    "UnknownService",
    "may_use",
    "service_for",
    "storage_services",
    "visible_services",
]
