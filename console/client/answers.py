"""What the console answers, as values: the Bearer token and its supply, services, domains,
origins, mirror storage, saved sections and refresh operations; and the reading of each from
the answer's JSON (a wrong shape is ConsoleProtocolError).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from console.client.errors import _protocol
from providerkit import json_readers as read
from providerkit.failures import ShapeError
from providerkit.json_types import JSONObject, JSONValue

# --- token supply ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConsoleToken:
    """`POST /oauth/tokens`'s answer. Its repr never shows the token."""

    access_token: str
    expired_at: datetime

    def __repr__(self) -> str:
        return f"ConsoleToken(expired_at={self.expired_at.isoformat()})"


class TokenSupply(Protocol):
    """Where the client gets its Bearer token; shared across processes by the Django layer."""

    def current(self) -> str:
        """The token to send now, obtaining one first if none is held or it is due."""
        ...

    def refresh(self, rejected: str) -> str:
        """A token other than `rejected`, which the console refused (10401); a supply renews
        only if `rejected` is still the one it holds (another process may have renewed)."""
        ...


class LocalTokenSupply:
    """A TokenSupply for one process (scripts, tests): `fetch` asks for a new token."""

    def __init__(self, fetch: Callable[[], ConsoleToken]) -> None:
        self._fetch = fetch
        self._token: ConsoleToken | None = None
        self._lock = threading.Lock()

    def current(self) -> str:
        with self._lock:
            if self._token is None or self._token.expired_at <= datetime.now(UTC):
                self._token = self._fetch()
            return self._token.access_token

    def refresh(self, rejected: str) -> str:
        with self._lock:
            if self._token is None or self._token.access_token == rejected:
                self._token = self._fetch()
            return self._token.access_token


# --- answers --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ServiceInfo:
    """A service (the provider's "bucket"): `business_type` `file` or `cdn`."""

    bucket_id: int
    name: str
    business_type: str
    status: str
    created_at: datetime
    domains: tuple[str, ...]
    line: str


@dataclass(frozen=True)
class ServicePage:
    services: tuple[ServiceInfo, ...]
    next_max: int | None  # `pager.max`: pass it as `max` for the next page; None: last page


@dataclass(frozen=True)
class DomainBinding:
    domain: str
    status: str
    created_at: datetime


@dataclass(frozen=True)
class OriginAddress:
    address: str
    weight: int
    backup: bool = False

    def as_json(self) -> JSONObject:
        return {"address": self.address, "weight": self.weight, "backup": self.backup}


@dataclass(frozen=True)
class MirrorState:
    status: str
    storage_bucket: str | None
    cache_seconds: int | None
    changed_at: datetime | None


@dataclass(frozen=True)
class SectionSaved:
    """`PUT /buckets/domains/config`'s answer: `revision` is the domain's new settings
    revision."""

    domain: str
    section: str
    value: JSONValue
    revision: int | str


@dataclass(frozen=True)
class DomainConfig:
    """`GET /buckets/domains/config`: every section's value, by section name."""

    domain: str
    sections: dict[str, JSONValue]
    revision: int | str


@dataclass(frozen=True)
class RefreshItem:
    """One line of a refresh or preheat answer; `code` 1 means accepted."""

    code: int
    status: str
    url: str

    @property
    def accepted(self) -> bool:
        return self.code == 1


@dataclass(frozen=True)
class RefreshRecord:
    id: int | str
    type: str
    url: str
    status: str
    progress: int
    created_at: datetime


@dataclass(frozen=True)
class RecordPage:
    records: tuple[RefreshRecord, ...]
    next_max: int | None


def _moment(data: JSONObject, key: str, where: str) -> datetime:
    """A time answered as Unix seconds (as `expired_at` is) or as an ISO 8601 text."""
    value = data.get(key)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(value, UTC)
    return read.read_timestamp(data, key, where)


def _optional_moment(data: JSONObject, key: str, where: str) -> datetime | None:
    return None if data.get(key) is None else _moment(data, key, where)


def _pager_max(answer: JSONObject, where: str) -> int | None:
    pager = read.optional_object(answer, "pager", where)
    return None if pager is None else read.optional_int(pager, "max", f"{where} pager")


def _revision(data: JSONObject, where: str, *, required: bool) -> int | str:
    """A settings revision: a number or a text ("" before the first change)."""
    revision = data.get("revision")
    if revision is None and not required:
        return ""
    if isinstance(revision, bool) or not isinstance(revision, int | str):
        raise ShapeError(f"{where}: field 'revision' is not a number or text")
    return revision


def _service(data: JSONObject, where: str) -> ServiceInfo:
    names = read.as_list(data.get("domains") or [], f"{where} domains")
    if not all(isinstance(name, str) for name in names):
        raise ShapeError(f"{where}: field 'domains' holds something other than names")
    domains = tuple(str(name) for name in names)
    return ServiceInfo(
        bucket_id=read.read_int(data, "bucket_id", where),
        name=read.read_str(data, "bucket_name", where),
        business_type=read.read_str(data, "business_type", where),
        status=read.optional_str(data, "status", where) or "",
        created_at=_moment(data, "created_at", where),
        domains=domains,
        line=read.optional_str(data, "line", where) or "auto",
    )


def _origin(data: JSONObject, where: str) -> OriginAddress:
    return OriginAddress(read.read_str(data, "address", where),
                         read.read_int(data, "weight", where), bool(data.get("backup", False)))


def _mirror(data: JSONObject, where: str) -> MirrorState:
    with _protocol(where):
        return MirrorState(read.read_str(data, "status", where),
                           read.optional_str(data, "storage_bucket", where),
                           read.optional_int(data, "cache_seconds", where),
                           _optional_moment(data, "changed_at", where))


def _item(data: JSONObject, where: str) -> RefreshItem:
    return RefreshItem(read.read_int(data, "code", where), read.read_str(data, "status", where),
                       read.read_str(data, "url", where))


def _items(value: JSONValue, where: str) -> tuple[RefreshItem, ...]:
    with _protocol(where):
        return tuple(_item(read.as_object(raw, f"{where}[]"), where)
                     for raw in read.as_list(value, where))


def _record(data: JSONObject, where: str) -> RefreshRecord:
    identifier = data.get("id")
    if isinstance(identifier, bool) or not isinstance(identifier, int | str):
        raise ShapeError(f"{where}: field 'id' is missing or not a number")
    return RefreshRecord(identifier, read.read_str(data, "type", where),
                         read.read_str(data, "url", where), read.read_str(data, "status", where),
                         read.read_int(data, "progress", where), _moment(data, "created_at", where))
