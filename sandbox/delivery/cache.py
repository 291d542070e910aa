"""The edge cache: what the edge has already produced, so a repeat is a HIT.

Entries live in this process's memory, like an edge server's cache, bounded by MAX_BYTES with
the least recently used going first; a body larger than MAX_ENTRY_BYTES is served but not kept.
An entry for an unprocessed original holds no bytes: it records the stored file's fingerprint
and the bytes are streamed from storage, which are the same bytes while the fingerprint holds.

Automatic refresh on replace/delete (content-delivery.md, "Cache refresh"): every request
looks its files up in storage before the cache, so a deleted file is never answered from it
(its entries age out), and an entry whose files' fingerprints (md5, modified time, secret) no
longer match is dropped together with every other entry made from those files (all versions
and processed variants), at once rather than "within 5 minutes".
A purge drops the entries of a URL path: the entry of that exact path (every query variant)
and every entry made from a stored file at that path (its versions, parameter URLs and combined
files that include it). Entries are the domain's: each domain has its own settings (and maybe
its own bucket), so a key starts with the domain, and refreshes act on one domain's entries.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

MAX_BYTES = 64 * 1024 * 1024
MAX_ENTRY_BYTES = 8 * 1024 * 1024
# Every entry costs memory even without a body (originals are streamed): counting a fixed
# overhead, and capping the count, keeps cache-busting query strings from growing it forever.
ENTRY_OVERHEAD_BYTES = 512
MAX_ENTRIES = 20_000

# (storage path, md5, modified time, secret)
Fingerprint = tuple[str, str, float, str]
# (domain, path after rewriting, query when parameters are followed)
CacheKey = tuple[str, str, str | None]


@dataclass
class Entry:
    key: CacheKey
    fingerprints: tuple[Fingerprint, ...]
    body: bytes | None  # None: stream the stored original
    content_type: str
    filename: str  # what `_upd=true` calls the download
    stored_at: float
    hits: int = field(default=0)

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(fingerprint[0] for fingerprint in self.fingerprints)

    @property
    def size(self) -> int:
        return len(self.body) if self.body is not None else 0

    @property
    def cost(self) -> int:
        """What the entry counts against the cache's memory budget."""
        return ENTRY_OVERHEAD_BYTES + self.size

    @property
    def domain(self) -> str:
        return self.key[0]

    @property
    def path(self) -> str:
        return self.key[1]

    def describe(self) -> dict[str, Any]:
        return {"domain": self.domain, "path": self.path, "query": self.key[2],
                "sources": list(self.sources),
                "size": self.size, "content_type": self.content_type,
                "stored_at": self.stored_at, "hits": self.hits,
                "holds_body": self.body is not None}


class EdgeCache:
    """Thread-safe: the server runs many request threads."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[CacheKey, Entry] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: CacheKey, fingerprints: tuple[Fingerprint, ...]) -> Entry | None:
        """The current entry for `key`, or None; a stale one takes its variants with it."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry.fingerprints != fingerprints:
                self._drop_where(lambda e: e.domain == entry.domain
                                 and bool(set(e.sources) & set(entry.sources)))
                return None
            entry.hits += 1
            self._entries.move_to_end(key)
            return entry

    def put(self, entry: Entry) -> bool:
        """Keep `entry`; False when it is too large to keep."""
        if entry.size > MAX_ENTRY_BYTES:
            return False
        with self._lock:
            old = self._entries.pop(entry.key, None)
            if old is not None:
                self._bytes -= old.cost
            self._entries[entry.key] = entry
            self._bytes += entry.cost
            while self._entries and (self._bytes > self.max_bytes
                                     or len(self._entries) > MAX_ENTRIES):
                _, evicted = self._entries.popitem(last=False)
                self._bytes -= evicted.cost
        return True

    def purge(self, domain: str, path: str) -> int:
        """Drop the entries a purge of the URL path `path` of `domain` refreshes; returns how
        many."""
        with self._lock:
            return self._drop_where(lambda entry: entry.domain == domain
                                    and (entry.path == path or path in entry.sources))

    def purge_matching(self, domain: str, matches: Callable[[str], object]) -> int:
        """Drop the entries of `domain` whose path, or the path of a file they were made from,
        `matches` (a rule refresh); returns how many."""
        with self._lock:
            return self._drop_where(lambda entry: entry.domain == domain and (
                bool(matches(entry.path)) or any(matches(source) for source in entry.sources)))

    def clear_domain(self, domain: str) -> int:
        """Drop every entry of `domain` (its settings changed, or it was refreshed whole)."""
        with self._lock:
            return self._drop_where(lambda entry: entry.domain == domain)

    def clear(self) -> int:
        with self._lock:
            count = len(self._entries)
            self._entries.clear()
            self._bytes = 0
            return count

    def entries(self) -> list[Entry]:
        with self._lock:
            return list(self._entries.values())

    def _drop_where(self, condition: Callable[[Entry], bool]) -> int:
        doomed = [key for key, entry in self._entries.items() if condition(entry)]
        for key in doomed:
            self._bytes -= self._entries.pop(key).cost
        return len(doomed)


EDGE_CACHE = EdgeCache()
