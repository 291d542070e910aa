"""Refreshing what the edge keeps of own-origin domains (content-delivery.md, "Cache refresh";
docs/decisions.md, "Refresh"): the console and the purge API call these when they accept an
item, and the next request for what they name is a miss.

- a URL: every entry of its domain and path (all query variants), the query ignored;
- a rule (`*` matches any run of characters, the whole URL matched, scheme ignored, the
  host in any case);
- a whole site: every entry of the domain.
Only own-origin entries are dropped here; a URL of a storage domain is the purge API's, which
drops its entries and every variant made from the file (cache.py).
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from sandbox.delivery.cache import EDGE_CACHE
from sandbox.delivery.own_origin import cache_key
from sandbox.delivery.sites import host_name, own_origin_site


def refresh_site(domain: str) -> int:
    """Drop every entry of the own-origin `domain`; how many went."""
    return EDGE_CACHE.drop_domain(host_name(domain))


def refresh_url(url: str) -> int:
    """Drop the entries of `url` when its host is an own-origin domain; how many went."""
    try:
        parts = urlsplit(url.strip())
        host = host_name(parts.netloc)
    except ValueError:
        return 0
    if parts.scheme.lower() not in ("http", "https") or own_origin_site(host) is None:
        return 0
    return EDGE_CACHE.purge(cache_key(host, unquote(parts.path) or "/", None)[0])


def refresh_rule(pattern: str) -> int:
    """Drop the own-origin entries whose `http://<domain><path>` the rule matches."""
    parts = pattern.strip().split("://", 1)
    if len(parts) != 2 or parts[0].lower() not in ("http", "https"):
        return 0
    host, slash, path = parts[1].partition("/")
    rule = f"{host.lower()}{slash}{path}"  # host names are lowercase; paths keep their case
    wanted = re.compile(".*".join(re.escape(piece) for piece in rule.split("*")), re.DOTALL)
    return EDGE_CACHE.drop_matching(
        lambda entry: bool(entry.domain) and wanted.fullmatch(entry.key[0]) is not None)
