"""The console's refreshes beside the purge API's URL refresh (cdn/refresh.md): rule refresh
(`*` patterns, at most 10), URL preheat (at most 50) and whole-site refresh (own-origin domains
only), each recorded as a `RefreshOperation` before the console is called.

Every item must be on a domain of the page's domain's service: a rule refresh of another
service's files is refused at the field, before anything is sent. An item written with a
domain's link address (the environment's domain is reached at DELIVERY_URL, the sandbox's
with a port) is sent with the domain's name, which is how the console knows it; the port is
dropped (the console matches host names).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from django.db import transaction

from backoffice.annotations import StaffUser
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.audit import audited
from console.client import ConsoleError, RefreshItem
from console.models import Domain
from console.services import console_client, domain_access
from delivery.models import RefreshKind, RefreshOperation, RefreshState

MAX_PATTERNS = 10
MAX_PREHEAT_URLS = 50
FAILURES = (ConsoleError, ProviderNotConfigured)
# http(s)://host[:port]/path: no user part, no spaces; `*` only in rule refresh paths.
_URL = re.compile(r"https?://[^/\s?#@*]+(/\S*)?")


@dataclass(frozen=True)
class ItemProblem:
    """A bad line: `code` one of no_items, too_many, url_shape, wildcard, other_service,
    unknown_domain; `service` names the other service for other_service."""

    line: int
    item: str
    code: str
    service: str = ""


class RefreshInputError(ValueError):
    def __init__(self, problems: list[ItemProblem]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"line {p.line}: {p.code}" for p in problems))


class SiteRefreshRefused(ValueError):
    """A whole-site refresh of a storage service's domain: own-origin domains only."""


def _host(url: str) -> tuple[str, str]:
    """(host, host:port) of a URL, lowercased."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower().rstrip(".")
    try:
        port = parts.port
    except ValueError:
        port = None
    return host, f"{host}:{port}" if port else host


def _known_hosts() -> dict[str, Domain]:
    """Every domain of ours by its name and by the host (and host:port) of its link address."""
    known: dict[str, Domain] = {}
    for domain in Domain.objects.select_related("service").order_by("name"):
        try:
            base = domain_access(domain).base_url
        except ProviderNotConfigured:
            base = ""
        if base:
            host, with_port = _host(base)
            known.setdefault(with_port, domain)
            known.setdefault(host, domain)
    for domain in Domain.objects.select_related("service"):
        known[domain.name] = domain  # a domain's own name wins over another's link address
    return known


def _as_sent(url: str, domain: Domain) -> str:
    """The item with the domain's name as its host (scheme, path and query kept)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, domain.name, parts.path or "/", parts.query, ""))


def parse_items(text: str, domain: Domain, *, maximum: int, wildcards: bool) -> list[str]:
    """The lines of a rule refresh (`wildcards`) or preheat form, as they will be sent, repeats
    dropped. RefreshInputError names every bad line."""
    known = _known_hosts()
    problems: list[ItemProblem] = []
    items: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if not _URL.fullmatch(line):
            problems.append(ItemProblem(number, line, "url_shape"))
            continue
        if "*" in line and not wildcards:
            problems.append(ItemProblem(number, line, "wildcard"))
            continue
        host, with_port = _host(line)
        owner = known.get(with_port) or known.get(host)
        if owner is None:
            problems.append(ItemProblem(number, line, "unknown_domain"))
        elif owner.service_id != domain.service_id:
            problems.append(ItemProblem(number, line, "other_service", owner.service.name))
        else:
            sent = _as_sent(line, owner)
            if sent not in items:
                items.append(sent)
    if not items and not problems:
        problems.append(ItemProblem(0, "", "no_items"))
    if len(items) > maximum:
        problems.append(ItemProblem(0, "", "too_many"))
    if problems:
        raise RefreshInputError(problems)
    return items


def parse_patterns(text: str, domain: Domain) -> list[str]:
    return parse_items(text, domain, maximum=MAX_PATTERNS, wildcards=True)


def parse_preheat(text: str, domain: Domain) -> list[str]:
    return parse_items(text, domain, maximum=MAX_PREHEAT_URLS, wildcards=False)


def _answer(item: RefreshItem) -> dict[str, object]:
    return {"url": item.url, "code": item.code, "status": item.status}


def _send(operation: RefreshOperation,
          call: Callable[[], Sequence[RefreshItem]]) -> RefreshOperation:
    """Call the console (`call()` answers the items) and keep its answer on the record."""
    try:
        answered = call()
    except FAILURES as error:
        operation.status, operation.error = RefreshState.FAILED, str(error)[:2000]
    else:
        operation.answers = [_answer(item) for item in answered]
        accepted = sum(1 for item in answered if item.accepted)
        operation.status = (RefreshState.ACCEPTED if accepted == len(answered) and answered
                            else RefreshState.PARTLY if accepted else RefreshState.REFUSED)
    operation.save(update_fields=["status", "error", "answers"])
    return operation


def _record(kind: str, items: list[str], domain: Domain,
            user: StaffUser | None) -> RefreshOperation:
    with transaction.atomic():
        return RefreshOperation.objects.create(
            domain=domain, kind=kind, items=items,
            requested_by=user if getattr(user, "pk", None) else None)


def _summary(operation: RefreshOperation) -> str:
    return f"{operation.get_kind_display()} of {len(operation.items)}: {operation.status}"


@audited("delivery", "refresh.rule",
         lambda patterns, domain, user: (domain, f"rule refresh of {len(patterns)} patterns",
                                         user),
         result_target=lambda operation: operation)
def refresh_rules(patterns: list[str], domain: Domain, user: StaffUser) -> RefreshOperation:
    """Send checked patterns (`parse_patterns`) with `POST /buckets/purge/batch`; a failing
    call leaves the record `failed` with the error."""
    operation = _record(RefreshKind.RULE, patterns, domain, user)
    return _send(operation, lambda: console_client().purge_batch(patterns))


@audited("delivery", "refresh.preheat",
         lambda urls, domain, user: (domain, f"preheat of {len(urls)} URLs", user),
         result_target=lambda operation: operation)
def preheat(urls: list[str], domain: Domain, user: StaffUser) -> RefreshOperation:
    """Send checked URLs (`parse_preheat`) with `POST /preheat`."""
    operation = _record(RefreshKind.PREHEAT, urls, domain, user)
    return _send(operation, lambda: console_client().preheat(urls))


def site_pattern(domain: Domain) -> str:
    """How the console names a whole-site refresh (its answer's and records' `url`)."""
    return f"http://{domain.name}/*"


@audited("delivery", "refresh.site",
         lambda domain, user: (domain, f"whole-site refresh of {domain.name}", user),
         result_target=lambda operation: operation)
def refresh_site(domain: Domain, user: StaffUser) -> RefreshOperation:
    """Whole-site refresh of an own-origin domain; SiteRefreshRefused (nothing recorded) for a
    storage service's domain."""
    if not domain.service.is_cdn:
        raise SiteRefreshRefused(domain.name)
    operation = _record(RefreshKind.SITE, [site_pattern(domain)], domain, user)
    return _send(operation, lambda: (console_client().refresh_site(domain.name),))
