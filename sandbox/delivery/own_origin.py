"""Serving a domain of an own-origin (`cdn`) service: the edge cache, then mirror storage, then
the merchant's origin (content-delivery.md, "own origin"; DECISIONS.md, mirror storage).

The access checks, rewriting, forced HTTPS and CORS are the edge's as for a storage domain
(views.py); this module answers once those let the request through.

GET and HEAD go through the cache. Cache key: the domain, the served path and, with
parameter-follow on, the query. A miss is answered by, in order:
1. the mirror bucket, when mirror storage is on or paused (mirror.py): kept in the cache for
   the mirror's cache time;
2. the origin (upstream.py), over the service's addresses (origin.py); a 200 copied into the
   mirror bucket when mirror storage is on is kept for the mirror's cache time, any other
   answer as long as freshness.py says (maybe not at all).
A HEAD miss asks the origin for GET, so that the answer can be cached.

What the origin gets as a query: with parameter-follow on, the query (less `_upt`/`_upp`);
with it off, the query is filtered out (cdn/advanced.md, "参数不跟随"), except `_upv`, which
"passes to cache servers and then to the origin" (content-delivery.md). `_upv` (follow off)
bypasses the cache both ways: the answer comes from the origin and is not kept. It also skips
the mirror bucket, since it asks for the origin's current file.

Other methods (POST, PUT, PATCH, DELETE) are passed to the origin with their body and query,
never cached nor mirrored. An origin's error answer is passed on as it is; when no address
answers at all, the edge answers 502 (50200001).

With HTML minification on, an HTML 200 answer is minified (as on a storage domain). Image
processing, custom versions and JS/CSS combining act on stored files only: on an own-origin
domain such URLs go to the origin as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from django.conf import settings as django_settings
from django.http import FileResponse, HttpResponse, HttpResponseBase

from sandbox.core import clock
from sandbox.delivery import downloads, freshness, htmlmin, mirror, query, upstream
from sandbox.delivery.cache import EDGE_CACHE, MAX_ENTRY_BYTES, CacheKey, Entry
from sandbox.delivery.config import Published
from sandbox.delivery.errors import ORIGIN_UNREACHABLE, EdgeError
from sandbox.delivery.mirror import Mirror
from sandbox.delivery.origin import BALANCER, Origin
from sandbox.delivery.upstream import OriginAnswer, OriginRequest, OriginUnreachable
from sandbox.storage.store import StoredObject

CACHED_METHODS = ("GET", "HEAD")
PASSED_METHODS = ("POST", "PUT", "PATCH", "DELETE")
HTML_TYPES = ("text/html", "application/xhtml+xml")
# Not passed to the client from a cached or fresh origin answer: the edge's server writes its
# own Date and Server, and Content-Type and Content-Length are set from the entry.
NOT_REPLAYED = frozenset({"date", "server", "content-type", "content-length", "x-cache"})
PATH_SAFE = "/!$&'()*+,;=:@~"


@dataclass(frozen=True)
class OwnOrigin:
    """An own-origin service as one of its domains serves it."""

    service: str
    domain: str
    origins: tuple[Origin, ...]
    mirror: Mirror


@dataclass(frozen=True)
class Incoming:
    """The request as the edge passes it on (after rewriting)."""

    method: str
    path: str  # decoded, as rewriting left it
    raw_query: str
    headers: dict[str, str]
    body: bytes
    client_ip: str  # as the access rules see it
    peer: str  # the address the request came from


def limits() -> upstream.Limits:
    return upstream.Limits(
        connect_timeout_s=float(django_settings.SANDBOX_ORIGIN_CONNECT_TIMEOUT_S),
        read_timeout_s=float(django_settings.SANDBOX_ORIGIN_READ_TIMEOUT_S),
        max_bytes=int(django_settings.SANDBOX_ORIGIN_MAX_BYTES))


def cache_key(domain: str, path: str, followed_query: str | None) -> CacheKey:
    return (domain, path, followed_query)


def serve(site: OwnOrigin, incoming: Incoming, published: Published) -> HttpResponseBase:
    if incoming.method in PASSED_METHODS:
        answer = _ask_origin(site, incoming, incoming.method, incoming.raw_query)
        return _replayed(answer.status, answer.headers, answer.body, answer.content_type)
    head = incoming.method == "HEAD"
    values = query.parameters(incoming.raw_query)
    follow = published.flag("param_follow")
    bypass = query.cache_bypass(values) and not follow
    upd = None if follow else query.download_name(values)
    followed = query.followed(incoming.raw_query)
    key = cache_key(site.domain, incoming.path, followed if follow else None)
    now = clock.now()
    entry = None if bypass else EDGE_CACHE.get(key, (), now)
    if entry is not None:
        response = _from_entry(entry, head=head)
        response["X-Cache"] = "HIT"
    else:
        origin_query = followed if follow else _upv_only(values)
        response, entry = _miss(site, incoming, published, key, origin_query, now,
                                bypass=bypass, head=head)
        response["X-Cache"] = "MISS"
    if upd is not None and 200 <= entry.status < 300:
        response["Content-Disposition"] = downloads.content_disposition(
            entry.filename if upd == "true" else upd)
    return response


def _upv_only(values: dict[str, str]) -> str:
    upv = values.get("_upv")
    return f"_upv={upv}" if upv is not None else ""


def _miss(site: OwnOrigin, incoming: Incoming, published: Published, key: CacheKey,
          origin_query: str, now: float, *, bypass: bool,
          head: bool) -> tuple[HttpResponseBase, Entry]:
    name = incoming.path.rsplit("/", 1)[-1] or site.domain
    found = None if bypass else mirror.stored(site.mirror, incoming.path)
    if found is not None:
        if found.size > MAX_ENTRY_BYTES:  # too large to keep: streamed from storage as it is
            streamed = _streamed(found, head=head)
            if streamed is not None:
                return streamed, _entry_of_stored(key, site, found, None, now)
        local = found.local_path
        try:
            body = local.read_bytes() if local is not None else None
        except FileNotFoundError:
            body = None  # replaced or deleted meanwhile: the origin answers instead
        if body is not None and len(body) <= MAX_ENTRY_BYTES:
            entry = _entry_of_stored(key, site, found, body, now)
            EDGE_CACHE.put(entry)
            return _from_entry(entry, head=head), entry
    answer = _ask_origin(site, incoming, "GET", origin_query)
    copied = None if bypass else mirror.keep(site.mirror, incoming.path, answer)
    seconds = (site.mirror.cache_seconds if copied is not None
               else freshness.cache_seconds(answer, incoming.path, now))
    entry = Entry(key=key, fingerprints=(), body=_decorated(answer, published),
                  content_type=answer.content_type, filename=name, stored_at=now,
                  status=answer.status, headers=answer.headers, expires_at=now + seconds)
    if seconds > 0 and not bypass:
        EDGE_CACHE.put(entry)
    return _from_entry(entry, head=head), entry


def _entry_of_stored(key: CacheKey, site: OwnOrigin, found: StoredObject, body: bytes | None,
                     now: float) -> Entry:
    """A file of the mirror bucket as an entry: no fingerprints, since the provider serves the
    copy for the mirror's cache time whatever becomes of it in the bucket meanwhile."""
    return Entry(key=key, fingerprints=(), body=body, content_type=found.mime_type,
                 filename=found.name, stored_at=now,
                 expires_at=now + site.mirror.cache_seconds)


def _ask_origin(site: OwnOrigin, incoming: Incoming, method: str,
                origin_query: str) -> OriginAnswer:
    target = quote(incoming.path, safe=PATH_SAFE) + (f"?{origin_query}" if origin_query else "")
    headers = upstream.forwarded_headers(incoming.headers, host=site.domain,
                                         client_ip=incoming.client_ip, peer=incoming.peer)
    request = OriginRequest(method, target, headers,
                            incoming.body if method in PASSED_METHODS else b"")
    try:
        return upstream.fetch(BALANCER.attempt_order(site.service, site.origins), request,
                              limits())
    except OriginUnreachable as error:
        raise EdgeError(502, ORIGIN_UNREACHABLE, f"origin unreachable: {error}") from None


def _decorated(answer: OriginAnswer, published: Published) -> bytes:
    """The body as the edge keeps it: a 200 HTML page minified when minification is on."""
    if (answer.status == 200 and published.flag("html_minify")
            and answer.content_type.split(";")[0].strip().lower() in HTML_TYPES):
        try:
            return htmlmin.minify(answer.body.decode("utf-8")).encode("utf-8")
        except UnicodeDecodeError:
            return answer.body  # not UTF-8: served as received rather than risk mangling it
    return answer.body


def _from_entry(entry: Entry, *, head: bool) -> HttpResponseBase:
    return _replayed(entry.status, entry.headers, b"" if head else (entry.body or b""),
                     entry.content_type, length=len(entry.body or b""))


def _replayed(status: int, headers: tuple[tuple[str, str], ...], body: bytes,
              content_type: str, *, length: int | None = None) -> HttpResponse:
    response = HttpResponse(body, status=status, content_type=content_type)
    for name, value in headers:
        lowered = name.lower()
        if lowered == "set-cookie":
            response.cookies.load(value)  # one header each, as the origin sent them
        elif lowered not in NOT_REPLAYED:
            response.headers[name] = value  # any other repeated header keeps its last value
    response["Content-Length"] = str(len(body) if length is None else length)
    return response


def _streamed(found: StoredObject, *, head: bool) -> HttpResponseBase | None:
    """A stored file too large for the cache, streamed; None when it is gone meanwhile."""
    local = found.local_path
    if head:
        empty = HttpResponse(b"", content_type=found.mime_type)
        empty["Content-Length"] = str(found.size)
        return empty
    try:
        handle = open(local, "rb") if local is not None else None  # noqa: SIM115
    except FileNotFoundError:
        handle = None
    if handle is None:
        return None
    response = FileResponse(handle, content_type=found.mime_type)  # it closes the handle
    if "Content-Disposition" in response:
        del response["Content-Disposition"]
    return response
