"""HTTP client of the provider's console API (the management API of services and domains).

Written from docs/decisions.md "Services, domains and the console API" and DECISIONS.md
"Services, domains and the provider's console" alone. JSON both ways unless the public shape
says form (`/oauth/tokens`, `/preheat`); every call but `/oauth/tokens` carries a Bearer token.

The client holds no token itself: a `TokenSupply` hands it out, so that the Django layer can
share one token between processes (`console.services.token`). When the console answers 10401
(no, unknown or expired token) the call is sent once more with a fresh token: a 401 means the
console did nothing with the request, so resending is safe for every call.
"""
from __future__ import annotations

import logging
import secrets
import string
from collections.abc import Iterator, Mapping, Sequence

import requests

# The client's errors and answers live in their own modules; every name is here as before.
from console.client.answers import (
    ConsoleToken,
    DomainBinding,
    DomainConfig,
    LocalTokenSupply,
    MirrorState,
    OriginAddress,
    RecordPage,
    RefreshItem,
    RefreshRecord,
    SectionSaved,
    ServiceInfo,
    ServicePage,
    TokenSupply,
    _item,
    _items,
    _mirror,
    _moment,
    _origin,
    _pager_max,
    _record,
    _revision,
    _service,
)
from console.client.errors import (
    ERRORS,
    BadField,
    Conflict,
    ConsoleConnectionError,
    ConsoleError,
    ConsoleProtocolError,
    ConsoleRefused,
    NotApplicable,
    NotFound,
    TokenRejected,
    TooMany,
    WrongCredentials,
    _protocol,
    _refusal,
)
from providerkit import json_readers as read
from providerkit.failures import NoAnswer, ShapeError, UnusableAnswer
from providerkit.json_types import JSONObject, JSONValue
from providerkit.observing import CallObserver
from providerkit.timeouts import DEFAULT_TIMEOUT, Timeout
from providerkit.transport import Params, Transport, json_answer

__all__ = [
    "ERRORS", "BadField", "Conflict", "ConsoleClient", "ConsoleConnectionError", "ConsoleError",
    "ConsoleProtocolError", "ConsoleRefused", "ConsoleToken", "DomainBinding", "DomainConfig",
    "LocalTokenSupply", "MirrorState", "NotApplicable", "NotFound", "OriginAddress",
    "RecordPage", "RefreshItem", "RefreshRecord", "SectionSaved", "ServiceInfo", "ServicePage",
    "TokenRejected", "TokenSupply", "TooMany", "WrongCredentials",
]

logger = logging.getLogger(__name__)


SERVICE = "console"
TOKENS_PATH = "/oauth/tokens"
# The `name` and `scope` a token is asked with; the console shows the name in its token list.
TOKEN_NAME = "backoffice"
TOKEN_SCOPE = "global"
BUSINESS_TYPES = ("file", "cdn")
SECTIONS = ("token", "separator", "versions", "rewrite", "cors", "referer", "ip_ban", "ua",
            "https", "optimise", "region", "origin_auth", "external_links",
            "waf", "body_limit", "ip_limits")  # the last three: own-origin domains only
RECORD_TYPES = ("url", "rule", "preheat", "site")
MIRROR_STATES = ("on", "paused", "off")


# --- client ---------------------------------------------------------------------------------------


class ConsoleClient:
    """Calls the console API at `base_url` (`CONSOLE_URL`) for one account."""

    def __init__(
        self,
        base_url: str,
        username: str,
        password: str,
        tokens: TokenSupply | None = None,
        *,
        timeout: Timeout = DEFAULT_TIMEOUT,
        session: requests.Session | None = None,
        observers: Sequence[CallObserver] = (),
    ) -> None:
        if not base_url:
            raise ValueError("the console's base URL is required")
        self._username = username
        self._password = password
        self._tokens: TokenSupply = tokens if tokens is not None else LocalTokenSupply(
            self.fetch_token)
        self._transport = Transport(SERVICE, base_url, session=session, timeout=timeout,
                                    observers=observers)

    def __repr__(self) -> str:  # never the password
        return f"ConsoleClient({self._transport.base_url!r}, username={self._username!r})"

    # -- tokens --

    def fetch_token(self) -> ConsoleToken:
        """A new Bearer token (earlier ones keep working); meant for a TokenSupply."""
        form = {"username": self._username, "password": self._password, "code": _token_code(),
                "name": TOKEN_NAME, "scope": TOKEN_SCOPE}
        answer = self._object(self._send("POST", TOKENS_PATH, data=form, token=None),
                              TOKENS_PATH)
        with _protocol(TOKENS_PATH):
            token = read.read_str(answer, "access_token", TOKENS_PATH)
            expired_at = _moment(answer, "expired_at", TOKENS_PATH)
        if not token:
            raise ConsoleProtocolError(TOKENS_PATH, "empty access_token")
        return ConsoleToken(token, expired_at)

    # -- services --

    def list_services(self, *, business_type: str | None = None, limit: int = 20,
                      max: int | None = None) -> ServicePage:  # noqa: A002 (the API's name)
        """One page of services, newest first."""
        if business_type is not None and business_type not in BUSINESS_TYPES:
            raise ValueError(f"business_type must be one of {BUSINESS_TYPES}")
        if not 1 <= limit <= 100:
            raise ValueError("limit must be 1..100")
        params: dict[str, str | int] = {"limit": limit}
        if business_type:
            params["business_type"] = business_type
        if max is not None:
            params["max"] = max
        path = "/buckets"
        answer = self._authorised_object("GET", path, params=params)
        with _protocol(path):
            services = tuple(_service(read.as_object(item, f"{path} buckets[]"), path)
                             for item in read.read_list(answer, "buckets", path))
            next_max = _pager_max(answer, path)
        return ServicePage(services, next_max)

    def all_services(self, *, business_type: str | None = None,
                     page_size: int = 100) -> Iterator[ServiceInfo]:
        """Every service, following `pager.max` page after page."""
        cursor: int | None = None
        while True:
            page = self.list_services(business_type=business_type, limit=page_size, max=cursor)
            yield from page.services
            if page.next_max is None or not page.services or page.next_max == cursor:
                return
            cursor = page.next_max

    def service_info(self, name: str) -> ServiceInfo:
        path = "/buckets/info"
        answer = self._authorised_object("GET", path, params={"bucket_name": name})
        with _protocol(path):
            return _service(answer, path)

    # -- domains --

    def list_domains(self, service: str) -> tuple[DomainBinding, ...]:
        path = "/buckets/domains"
        answer = self._authorised_object("GET", path, params={"bucket_name": service})
        with _protocol(path):
            return tuple(
                DomainBinding(read.read_str(item, "domain", path),
                              read.read_str(item, "status", path),
                              _moment(item, "created_at", path))
                for item in (read.as_object(raw, f"{path} domains[]")
                             for raw in read.read_list(answer, "domains", path)))

    def bind_domain(self, service: str, domain: str) -> None:
        """Bind `domain` to `service` (again to its own service: a no-op); Conflict when another
        service holds it."""
        self._authorised("PUT", "/buckets/domains", json={"bucket_name": service, "domain": domain})

    def unbind_domain(self, service: str, domain: str) -> None:
        """Unbind it; the console drops its settings."""
        self._authorised("DELETE", "/buckets/domains",
                         params={"bucket_name": service, "domain": domain})

    # -- origins and mirror storage (cdn services) --

    def origins(self, service: str) -> tuple[OriginAddress, ...]:
        path = "/buckets/origins"
        answer = self._authorised_object("GET", path, params={"bucket_name": service})
        with _protocol(path):
            return tuple(_origin(read.as_object(raw, f"{path} origins[]"), path)
                         for raw in read.read_list(answer, "origins", path))

    def put_origins(self, service: str, origins: Sequence[OriginAddress]) -> None:
        """Replace the service's origin list (1-20 entries, one at least not a backup)."""
        self._authorised("PUT", "/buckets/origins", json={
            "bucket_name": service, "origins": [origin.as_json() for origin in origins]})

    def mirror(self, service: str) -> MirrorState:
        path = "/buckets/mirror"
        return _mirror(self._authorised_object("GET", path, params={"bucket_name": service}), path)

    def put_mirror(self, service: str, status: str, storage_bucket: str | None = None,
                   cache_seconds: int | None = None) -> MirrorState:
        if status not in MIRROR_STATES:
            raise ValueError(f"status must be one of {MIRROR_STATES}")
        path = "/buckets/mirror"
        body: JSONObject = {"bucket_name": service, "status": status}
        if storage_bucket is not None:
            body["storage_bucket"] = storage_bucket
        if cache_seconds is not None:
            body["cache_seconds"] = cache_seconds
        return _mirror(self._authorised_object("PUT", path, json=body), path)

    # -- domain settings --

    def domain_config(self, domain: str) -> DomainConfig:
        """Every section of the domain's settings (the token's secret answered as "****").

        The contract says only "answers every section": the sections are read from a
        `sections` object when the answer has one, else from the answer itself.
        """
        path = "/buckets/domains/config"
        answer = self._authorised_object("GET", path, params={"domain": domain})
        with _protocol(path):
            nested = read.optional_object(answer, "sections", path)
            sections = nested if nested is not None else {
                key: value for key, value in answer.items() if key in SECTIONS}
            return DomainConfig(read.optional_str(answer, "domain", path) or domain,
                                dict(sections), _revision(answer, path, required=False))

    def put_section(self, domain: str, section: str, value: JSONValue) -> SectionSaved:
        """Replace one section of the domain's settings."""
        if section not in SECTIONS:
            raise ValueError(f"unknown section {section!r}")
        path = "/buckets/domains/config"
        answer = self._authorised_object(
            "PUT", path, json={"domain": domain, "section": section, "value": value})
        with _protocol(path):
            return SectionSaved(read.read_str(answer, "domain", path),
                                read.read_str(answer, "section", path), answer.get("value"),
                                _revision(answer, path, required=True))

    # -- refresh --

    def purge_batch(self, patterns: Sequence[str]) -> tuple[RefreshItem, ...]:
        """Rule refresh: URLs or patterns (`*` any run of characters), at most 10."""
        path = "/buckets/purge/batch"
        answer = self._authorised(
            "POST", path, json={"source_url": "\n".join(patterns), "noif": 1})
        return _items(answer, path)

    def preheat(self, urls: Sequence[str]) -> tuple[RefreshItem, ...]:
        """Warm URLs into the edge cache, at most 50."""
        path = "/preheat"
        return _items(self._authorised("POST", path, data={"url": "\n".join(urls)}), path)

    def refresh_site(self, domain: str) -> RefreshItem:
        """Whole-site refresh of an own-origin domain (NotApplicable for a storage service's)."""
        path = "/buckets/purge/site"
        answer = self._authorised_object("POST", path, json={"domain": domain})
        with _protocol(path):
            return _item(answer, path)

    def records(self, *, type: str | None = None, limit: int = 20,  # noqa: A002
                max: int | None = None) -> RecordPage:  # noqa: A002
        """One page of refresh operations (3 days at the provider), newest first."""
        if type is not None and type not in RECORD_TYPES:
            raise ValueError(f"type must be one of {RECORD_TYPES}")
        params: dict[str, str | int] = {"limit": limit}
        if type:
            params["type"] = type
        if max is not None:
            params["max"] = max
        path = "/buckets/purge/records"
        answer = self._authorised_object("GET", path, params=params)
        with _protocol(path):
            records = tuple(_record(read.as_object(raw, f"{path} records[]"), path)
                            for raw in read.read_list(answer, "records", path))
            return RecordPage(records, _pager_max(answer, path))

    # -- certificates --

    def upload_certificate(self, certificate: str, private_key: str) -> str:
        """Upload a PEM certificate and its key; the certificate's id."""
        path = "/https/certificate/"
        answer = self._authorised_object(
            "POST", path, json={"certificate": certificate, "private_key": private_key})
        with _protocol(path):
            result = read.read_object(answer, "result", path)
            identifier = result.get("certificate_id")
            if isinstance(identifier, bool) or not isinstance(identifier, int | str) \
                    or identifier == "":
                raise ShapeError(f"{path}: field 'result.certificate_id' is missing")
            return str(identifier)

    # -- plumbing --

    def _authorised_object(self, method: str, path: str, **kwargs: object) -> JSONObject:
        return self._object(self._authorised(method, path, **kwargs), path)

    def _authorised(self, method: str, path: str, **kwargs: object) -> JSONValue:
        """Send with the current token; on 10401 once more with a fresh one."""
        token = self._tokens.current()
        try:
            return self._send(method, path, token=token, **kwargs)  # type: ignore[arg-type]
        except TokenRejected:
            logger.info("%s %s: token refused (10401), renewing it and sending once more",
                        method, path)
        return self._send(method, path, token=self._tokens.refresh(token),
                          **kwargs)  # type: ignore[arg-type]

    def _send(self, method: str, path: str, *, token: str | None, params: Params | None = None,
              json: JSONValue | None = None, data: Mapping[str, str] | None = None) -> JSONValue:
        headers = {"Accept": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        try:
            response = self._transport.request(method, path, params=params, headers=headers,
                                               json=json, data=data)
        except NoAnswer as failure:
            raise ConsoleConnectionError(path, failure.detail,
                                         timed_out=failure.timed_out) from failure
        if response.status_code >= 400:
            raise _refusal(path, response)
        if not response.content.strip():
            return None  # a bodiless success (204)
        try:
            return json_answer(response, f"{method} {path}")
        except UnusableAnswer as failure:
            raise ConsoleProtocolError(path, failure.detail, response.status_code) from None

    @staticmethod
    def _object(value: JSONValue, path: str) -> JSONObject:
        with _protocol(path):
            return read.as_object(value, path)




def _token_code() -> str:
    """`code`: 20-32 of [A-Za-z0-9-], new for every token request."""
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(32))

