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
from console.services.connection import console_client
from console.services.credentials import (
    CredentialCheck,
    OperatorRefused,
    Verdict,
    register_credential_check,
)
from console.services.environment import environment_service
from console.services.mirroring import (
    MOVES,
    FileCount,
    MirrorMoveRefused,
    migrated_files,
    move_mirror,
    moves,
    publish_mirror,
    register_file_count,
)
from console.services.publishing import (
    FAILURES,
    LastOrigin,
    UnbindFailed,
    add_domain,
    add_origin,
    publish_domain,
    publish_origins,
    remove_domain,
    remove_origin,
)
from console.services.records import (
    InUse,
    Listed,
    Reference,
    references,
    refresh_from_provider,
    remove_service,
    save_storage_service,
)
from console.services.token import ConsoleTokenUnavailable

__all__ = [
    "MOVES",
    "FileCount",
    "MirrorMoveRefused",
    "migrated_files",
    "move_mirror",
    "moves",
    "publish_mirror",
    "register_file_count",
    "FAILURES",
    "CredentialCheck",
    "InUse",
    "LastOrigin",
    "Listed",
    "OperatorRefused",
    "Verdict",
    "Reference",
    "UnbindFailed",
    "add_domain",
    "add_origin",
    "publish_domain",
    "publish_origins",
    "references",
    "refresh_from_provider",
    "register_credential_check",
    "remove_domain",
    "remove_origin",
    "remove_service",
    "save_storage_service",
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
    "UnknownService",
    "may_use",
    "service_for",
    "storage_services",
    "visible_services",
]
