"""Which purge URLs belong to the edge (the others are answered in `invalid_domain_of_url`).

A URL is the edge's when it is http:// or https:// and either
- its host is the edge's own address: the delivery port on the host name the purge request
  itself was sent to (what reaches the purge port reaches the edge), `127.0.0.1`, `localhost`
  or `::1`; or
- its host is one of the domain names configured for the edge (`domains` of the delivery
  settings), on any port, since a bound domain is served on 80 and 443.
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
    hosts: frozenset[str]  # reached on `port`
    port: int
    domains: frozenset[str]  # reached on any port

    @classmethod
    def build(cls, request_host: str, port: int, domains: Iterable[str]) -> EdgeAddress:
        own = {name.lower() for name in LOOPBACK_NAMES}
        if request_host:
            own.add(request_host.lower())
        return cls(frozenset(own), port, frozenset(domain.lower() for domain in domains))

    def path_of(self, url: str) -> str | None:
        """The decoded path `url` purges, or None when the URL is not the edge's."""
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError:
            return None
        host = (parts.hostname or "").lower().rstrip(".")
        if parts.scheme.lower() not in ("http", "https") or not host:
            return None
        if host in self.domains or (host in self.hosts and port == self.port):
            return unquote(parts.path) or "/"
        return None
