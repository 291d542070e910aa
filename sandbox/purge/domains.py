"""Which purge URLs belong to the edge (the others are answered in `invalid_domain_of_url`).

A URL is the edge's when it is http:// or https:// and either
- its host is the edge's own address: the delivery port on the host name the purge request
  itself was sent to (what reaches the purge port reaches the edge), `127.0.0.1`, `localhost`
  or `::1`: the default domain's (the first storage service's first domain); or
- its host is a domain bound to a service of the account, on any port, since a bound domain
  is served on 80 and 443: that domain's; or
- its host is one of the aliases configured for the default domain (`domains` of its delivery
  settings), on any port: the default domain's.
A line that is not a URL with a host is invalid too. The path that is purged is the URL's path,
percent-decoded (the edge caches decoded paths); the query is ignored, so every query variant
of the path goes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


@dataclass(frozen=True)
class EdgeAddress:
    hosts: frozenset[str]  # reached on `port`, the default domain's
    port: int
    domains: dict[str, str]  # host name reached on any port -> the domain it is
    default: str  # the default domain ("" when the account has none)

    @classmethod
    def build(cls, request_host: str, port: int, aliases: Iterable[str], bound: Iterable[str],
              default: str) -> EdgeAddress:
        own = {name.lower() for name in LOOPBACK_NAMES}
        if request_host:
            own.add(request_host.lower())
        domains = {alias.lower(): default for alias in aliases}
        domains.update({name.lower(): name.lower() for name in bound})
        return cls(frozenset(own), port, domains, default)

    def path_of(self, url: str) -> str | None:
        """The decoded path `url` purges, or None when the URL is not the edge's."""
        target = self.target_of(url)
        return None if target is None else target[1]

    def target_of(self, url: str) -> tuple[str, str] | None:
        """(domain, decoded path) that `url` purges, or None when the URL is not the edge's."""
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError:
            return None
        host = (parts.hostname or "").lower().rstrip(".")
        if parts.scheme.lower() not in ("http", "https") or not host:
            return None
        path = unquote(parts.path) or "/"
        if host in self.domains:
            return self.domains[host], path
        if host in self.hosts and port == self.port and self.default:
            return self.default, path
        return None
