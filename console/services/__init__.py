"""Use cases of the console app, the only module other apps and the pages import.

- `environment`: the service and domain of `STORAGE_*` / `DELIVERY_*` as records;
- `access`: the address and credentials of a service or domain, ready for a client;
- `choice`: the default service and domain, and the ones a person chose;
- `connection` and `token`: the console client, with the Bearer token every process shares.
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
    choose,
    chosen_domain,
    chosen_service,
    default_domain,
    default_service,
    domain_of,
    storage_services,
)
from console.services.connection import console_client
from console.services.environment import environment_service
from console.services.token import ConsoleTokenUnavailable

__all__ = [
    "choose",
    "console_client",
    "ConsoleTokenUnavailable",
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
    "storage_services",
]
