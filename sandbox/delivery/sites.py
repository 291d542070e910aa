"""Which domain a request is for, and what that domain serves (docs/decisions.md, "Domains at
the sandbox edge").

The domain is the request's `Host` without its port:
- a domain bound to a service is that domain;
- an IP literal or `localhost` (how `DELIVERY_URL` reaches the edge) is the default domain,
  the first storage service's first domain, and so is a host name listed in that domain's
  `domains` setting (the control API's aliases, which purge accepts too);
- anything else is no domain of the account (the edge answers 404).
A storage service's domain serves its own bucket; a CDN service's domain has no bucket (its
origin is the merchant's server).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from sandbox.console import directory
from sandbox.console.directory import BoundDomain

LOCAL_NAMES = frozenset({"localhost"})


@dataclass(frozen=True)
class Site:
    domain: str
    service: str
    bucket: str | None  # None: a CDN service, whose origin is the merchant's own server


def hostname(host_header: str) -> str:
    """`Host` without its port, lowercase, without a trailing dot; IPv6 without brackets."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        host = host.rsplit(":", 1)[0]
    return host.rstrip(".")


def is_local(host: str) -> bool:
    if host in LOCAL_NAMES:
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def site_of(bound: BoundDomain) -> Site:
    return Site(bound.name, bound.service, bound.service if bound.is_file else None)


def default_site() -> Site | None:
    bound = directory.default_domain()
    return None if bound is None else site_of(bound)


def site_for_host(host_header: str, aliases_of_default: list[str]) -> Site | None:
    """The site `Host` names; `aliases_of_default` is the default domain's `domains` setting."""
    host = hostname(host_header)
    if not host or is_local(host):
        return default_site()
    bound = directory.bound_domain(host)
    if bound is not None:
        return site_of(bound)
    if host in aliases_of_default:
        return default_site()
    return None
