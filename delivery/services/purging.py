"""Cache refresh: manual purges from the purge page and automatic ones after storage changes.

Every purge is a `PurgeRequest` written before the provider is called. Sending claims the row
(`pending`/`failed` -> `sending`) with a conditional update, inside a lock that also counts the
URLs sent in the last minute, so the 600-URLs-a-minute limit (DECISIONS, purge) is kept here
rather than discovered as the provider's 406 (which, when it comes all the same, leaves the
request failed, to be sent again by the beat job). A manual request that would break it is
refused before anything is stored; an automatic one waits for room (the task retries with a
countdown).

The window is the account's (one purge API for every domain), so the lock is account-wide
too; each request records the domains of ours its URLs touch (`PurgeRequest.domains`).
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.db import connection, transaction
from django.db.models import F, Sum
from django.utils import timezone

from backoffice.annotations import StaffUser
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.operations.queue import enqueue
from backoffice.security.audit import audited
from console.models import Domain, Service
from console.services import default_domain, domain_access
from delivery import rules
from delivery.client import (
    DeliveryConnectionError,
    DeliveryError,
    PurgeAuthError,
    PurgeRateLimited,
    PurgeRefused,
)
from delivery.models import (
    DeliverySettings,
    ImageVersion,
    PurgeErrorKind,
    PurgeRequest,
    PurgeSource,
    PurgeStatus,
)
from delivery.services.connection import delivery_base_url, purge_client

logger = logging.getLogger(__name__)

MAX_URLS_PER_MINUTE = 600
WINDOW = timedelta(seconds=60)
MAX_ATTEMPTS = 5
# The key of the PostgreSQL advisory lock that serialises the window's checks ("PURGEWIN").
WINDOW_LOCK_KEY = 0x5055524745574E
# A `sending` row older than this was interrupted (worker lost mid-call): send it again.
STUCK_AFTER = timedelta(minutes=10)
# A `pending` row older than this lost its task (broker down at enqueue time).
LOST_AFTER = timedelta(minutes=2)
_URL = re.compile(r"https?://[^/\s?#]+(/\S*)?")


@dataclass(frozen=True)
class UrlProblem:
    line: int
    url: str
    code: str


class PurgeInputError(ValueError):
    """Bad lines of the purge form; `problems` name each line."""

    def __init__(self, problems: list[UrlProblem]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"line {p.line}: {p.code}" for p in problems))


class PurgeWindowFull(Exception):
    """Sending now would exceed 600 URLs in a minute."""

    def __init__(self, used: int, asked: int, retry_in: int) -> None:
        self.used = used
        self.asked = asked
        self.retry_in = retry_in
        super().__init__(f"{used} URLs purged in the last minute; {asked} more would exceed "
                         f"{MAX_URLS_PER_MINUTE}; room in {retry_in} s")


def parse_urls(text: str) -> list[str]:
    """One URL a line (blank lines ignored, repeats dropped), each http(s) with a host; at most
    600. PurgeInputError lists every bad line."""
    problems: list[UrlProblem] = []
    urls: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        url = raw.strip()
        if not url:
            continue
        if not _URL.fullmatch(url):
            problems.append(UrlProblem(number, url, "url_shape"))
        elif url not in urls:
            urls.append(url)
    if not urls and not problems:
        problems.append(UrlProblem(0, "", "no_urls"))
    if len(urls) > MAX_URLS_PER_MINUTE:
        problems.append(UrlProblem(0, "", "too_many"))
    if problems:
        raise PurgeInputError(problems)
    return urls


def urls_in_window(now: datetime) -> tuple[int, datetime | None]:
    """URLs sent (or being sent) in the minute before `now`, and the oldest such attempt."""
    recent = PurgeRequest.objects.filter(attempted_at__gt=now - WINDOW)
    totals = recent.aggregate(used=Sum("url_count"))
    oldest = recent.order_by("attempted_at").values_list("attempted_at", flat=True).first()
    return totals["used"] or 0, oldest


def _check_room(asked: int, now: datetime) -> None:
    used, oldest = urls_in_window(now)
    if used + asked <= MAX_URLS_PER_MINUTE:
        return
    wait = (oldest + WINDOW - now).total_seconds() if oldest else WINDOW.total_seconds()
    raise PurgeWindowFull(used, asked, max(1, math.ceil(wait)))


def _lock() -> None:
    """Serialise window checks across domains and processes: a transaction-scoped advisory
    lock on PostgreSQL (no row stands for the account); SQLite's IMMEDIATE transactions
    already serialise writers."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [WINDOW_LOCK_KEY])


def _claim(pk: int, now: datetime) -> bool:
    """`pending`/`failed` -> `sending`, counted in the window from now on; False when another
    worker has it or it is final. Call inside the lock."""
    request = PurgeRequest.objects.filter(pk=pk).values_list("url_count", flat=True).first()
    if request is None:
        return False
    _check_room(request, now)
    claimed = PurgeRequest.objects.filter(
        pk=pk, status__in=(PurgeStatus.PENDING, PurgeStatus.FAILED)
    ).update(status=PurgeStatus.SENDING, attempted_at=now, attempts=F("attempts") + 1)
    return claimed == 1


def _host_of(url: str) -> str:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    return f"{host}:{parts.port}" if parts.port else host


def domains_of_urls(urls: Sequence[str]) -> list[Domain]:
    """The domains of ours the URLs are on: by the domain's name, or by the host of its link
    address (the environment's domain is reached at DELIVERY_URL, the sandbox's with a port)."""
    hosts = {_host_of(url) for url in urls} | {_host_of(url).split(":")[0] for url in urls}
    found = []
    for domain in Domain.objects.select_related("service").order_by("name"):
        try:
            address = _host_of(domain_access(domain).base_url)
        except ProviderNotConfigured:  # an unconfigured domain is still known by its name
            address = ""
        if domain.name in hosts or (address and address in hosts):
            found.append(domain)
    return found


def _record(*, source: str, urls: list[str], domains: Sequence[Domain], path: str = "",
            user: StaffUser | None = None) -> PurgeRequest:
    request = PurgeRequest.objects.create(
        domain=domains[0] if len(domains) == 1 else None,
        requested_by=user if getattr(user, "pk", None) else None,
        source=source, path=path[:1024], urls="\n".join(urls), url_count=len(urls))
    request.domains.set(domains)
    return request


@audited("delivery", "purge", lambda urls, user: (None, f"purge of {len(urls)} URLs"),
         result_target=lambda request: request)
def request_manual_purge(urls: list[str], user: StaffUser) -> PurgeRequest:
    """Store and send a purge from the purge page. PurgeWindowFull (nothing stored) when the
    minute's room is too small; provider problems end up on the returned row.

    The URLs may be on any domains (the purge API serves the account's): the request records
    those of ours they touch, and the first storage domain among them signs (`_send_claimed`).
    """
    domains = domains_of_urls(urls)
    purge_client(next((d for d in domains if d.service.is_storage), None))  # before storing
    now = timezone.now()
    with transaction.atomic():
        _lock()
        _check_room(len(urls), now)
        request = _record(source=PurgeSource.MANUAL, urls=urls, domains=domains, user=user)
        _claim(request.pk, now)
    return _send_claimed(request.pk)


def file_urls(path: str, domain: Domain) -> list[str]:
    """The edge URL of a stored file on `domain` and of each of the domain's image versions."""
    url = rules.edge_url(delivery_base_url(domain), path)
    separator = DeliverySettings.for_domain(domain).separator
    names = ImageVersion.objects.filter(domain=domain).order_by("name").values_list(
        "name", flat=True)
    return [url, *(f"{url}{separator}{name}" for name in names)]


def service_file_urls(path: str, service: Service) -> tuple[list[str], list[Domain]]:
    """A storage service's file is served on each of the service's domains: its URLs on all
    of them (domains without a link address are skipped), and those domains."""
    urls: list[str] = []
    domains: list[Domain] = []
    for domain in service.domains.order_by("-from_environment", "name"):
        try:
            urls.extend(file_urls(path, domain))
        except ProviderNotConfigured:
            continue
        domains.append(domain)
    return urls, domains


def purge_file_urls(path: str, source: str = PurgeSource.AUTOMATIC, *,
                    service: Service | None = None) -> PurgeRequest | None:
    """Record an automatic purge of a file's URLs on every domain of its storage service (the
    default service's when none is named) and send it after the current transaction commits
    (hook for storage's file_replaced / file_deleted). None when the service has no domain
    with a link address: there is nothing at the edge to refresh."""
    if service is None:
        service = default_domain().service  # ProviderNotConfigured without any domain
    urls, domains = service_file_urls(path, service)
    if not urls:
        return None
    request = _record(source=source, urls=urls[:MAX_URLS_PER_MINUTE], domains=domains,
                      path=path)
    enqueue_purge(request.pk)
    return request


def purge_files_urls(paths: Sequence[str], source: str, *, service: Service,
                     folder: str = "") -> list[PurgeRequest]:
    """Record and queue the purge of many files' URLs (a storage folder job's files, on every
    domain of its service) in as few requests as the API allows: each holds up to
    MAX_URLS_PER_MINUTE URLs, and a file's URLs stay in one request. `folder` is what the
    history names them by. Each is sent after the current transaction commits, and waits its
    turn in the minute's window as any automatic purge does."""
    makers = _url_makers(service)
    if not makers:
        return []
    domains = [domain for domain, _base, _separator, _names in makers]
    batches: list[list[str]] = [[]]
    for path in dict.fromkeys(paths):  # once each, in their order
        urls = [url for _domain, base, separator, names in makers
                for url in _with_versions(rules.edge_url(base, path), separator, names)]
        if batches[-1] and len(batches[-1]) + len(urls) > MAX_URLS_PER_MINUTE:
            batches.append([])
        batches[-1].extend(urls[:MAX_URLS_PER_MINUTE])
    requests = []
    for urls in batches:
        if urls:
            request = _record(source=source, urls=urls, domains=domains, path=folder)
            enqueue_purge(request.pk)
            requests.append(request)
    return requests


def _url_makers(service: Service) -> list[tuple[Domain, str, str, list[str]]]:
    """Per domain of the service with a link address: (domain, base URL, version separator,
    version names), read once for a whole batch of files."""
    makers = []
    for domain in service.domains.order_by("-from_environment", "name"):
        try:
            base = delivery_base_url(domain)
        except ProviderNotConfigured:
            continue
        names = list(ImageVersion.objects.filter(domain=domain).order_by("name")
                     .values_list("name", flat=True))
        makers.append((domain, base, DeliverySettings.for_domain(domain).separator, names))
    return makers


def _with_versions(url: str, separator: str, names: list[str]) -> list[str]:
    return [url, *(f"{url}{separator}{name}" for name in names)]


def send_purge(pk: int) -> PurgeRequest | None:
    """Send a stored purge (task and beat entry point). PurgeWindowFull when there is no room
    yet (the row stays as it was); None when the row is final or taken by another worker."""
    now = timezone.now()
    with transaction.atomic():
        _lock()
        if not _claim(pk, now):
            return None
    return _send_claimed(pk)


def _signing_domain(request: PurgeRequest) -> Domain | None:
    """The domain whose storage operator signs: the first storage domain the URLs touch."""
    return next((d for d in request.domains.select_related("service")
                 if d.service.is_storage), None)


def _send_claimed(pk: int) -> PurgeRequest:
    request = PurgeRequest.objects.get(pk=pk)
    try:
        result = purge_client(_signing_domain(request)).purge(request.url_list())
    except PurgeRateLimited as error:
        # api/purge.md's 406: the minute is full at the provider (another client of the
        # account, or a clock that counts differently); the URLs can go once it has room.
        _finish(pk, PurgeStatus.FAILED, error=str(error), answer=error.body,
                kind=PurgeErrorKind.RATE_LIMITED)
    except DeliveryConnectionError as error:
        _finish(pk, PurgeStatus.FAILED, error=str(error), answer=error.body,
                kind=PurgeErrorKind.NO_ANSWER)
    except PurgeRefused as error:
        # A server error may pass; anything else the provider will refuse again.
        retry = error.status is not None and error.status >= 500
        _finish(pk, PurgeStatus.FAILED if retry else PurgeStatus.REFUSED, error=str(error),
                answer=error.body,
                kind=PurgeErrorKind.SERVER if retry else PurgeErrorKind.REFUSED)
    except PurgeAuthError as error:
        # Credentials, names or the clock: sending the same again would be refused again.
        _finish(pk, PurgeStatus.REFUSED, error=str(error), answer=error.body,
                kind=_AUTH_KINDS.get(error.reason or "", PurgeErrorKind.UNAUTHORIZED))
    except DeliveryError as error:
        _finish(pk, PurgeStatus.REFUSED, error=str(error), answer=error.body,
                kind=PurgeErrorKind.REFUSED)
    except Exception as error:
        # Never leave a row in `sending` because of a local failure (settings removed, ...).
        _finish(pk, PurgeStatus.FAILED, error=f"{type(error).__name__}: {error}")
        raise
    else:
        _finish(pk, PurgeStatus.SENT, answer=json.dumps(dict(result.raw), ensure_ascii=False),
                invalid=list(result.invalid_domain_urls))
    return PurgeRequest.objects.get(pk=pk)


# The client's reasons (api/purge.md's 401 texts) and the kinds the history words them as.
_AUTH_KINDS: dict[str, PurgeErrorKind] = {
    "need_authorization": PurgeErrorKind.NEED_AUTHORIZATION,
    "need_date": PurgeErrorKind.NEED_DATE,
    "user_not_exists": PurgeErrorKind.USER_NOT_EXISTS,
    "bucket_not_exists": PurgeErrorKind.BUCKET_NOT_EXISTS,
    "date_offset": PurgeErrorKind.DATE_OFFSET,
    "sign_error": PurgeErrorKind.SIGN_ERROR,
}


def _finish(pk: int, status: str, *, error: str = "", answer: str = "",
            invalid: list[str] | None = None, kind: str = "") -> None:
    fields: dict[str, Any] = {"status": status, "error": error[:2000], "answer": answer[:4000],
                              "error_kind": kind}
    if status != PurgeStatus.FAILED:
        fields["finished_at"] = timezone.now()
    if invalid is not None:
        fields["invalid_domains"] = invalid
    # Only the claimant writes: a row someone reset meanwhile is left alone.
    PurgeRequest.objects.filter(pk=pk, status=PurgeStatus.SENDING).update(**fields)
    if status == PurgeStatus.FAILED:
        exhausted = PurgeRequest.objects.filter(pk=pk, status=PurgeStatus.FAILED,
                                                attempts__gte=MAX_ATTEMPTS)
        exhausted.update(status=PurgeStatus.REFUSED, finished_at=timezone.now())


def retry_delay(attempts: int) -> timedelta:
    """1, 2, 4, 8 minutes after the 1st, 2nd, 3rd, 4th failed attempt."""
    return timedelta(minutes=2 ** max(attempts - 1, 0))


def due_purges(now: datetime | None = None) -> list[int]:
    """Rows the beat job should (re)send: lost pending ones, failed ones whose back-off has
    passed, and interrupted `sending` ones (reset to failed first)."""
    now = now or timezone.now()
    PurgeRequest.objects.filter(
        status=PurgeStatus.SENDING, attempted_at__lt=now - STUCK_AFTER
    ).update(status=PurgeStatus.FAILED, error="interrupted while sending")
    due = list(PurgeRequest.objects.filter(
        status=PurgeStatus.PENDING, created_at__lt=now - LOST_AFTER).values_list("pk", flat=True))
    failed = PurgeRequest.objects.filter(status=PurgeStatus.FAILED, attempts__lt=MAX_ATTEMPTS)
    for pk, attempts, attempted_at in failed.values_list("pk", "attempts", "attempted_at"):
        if attempted_at is None or attempted_at + retry_delay(attempts) <= now:
            due.append(pk)
    return sorted(due)


def enqueue_purge(pk: int) -> None:
    """Queue the sending of a stored purge once the current transaction commits."""
    enqueue("delivery.tasks.send_purge_task", pk)


def resend_purges(pks: Sequence[int]) -> int:
    """Send failed or refused purges again, from the first attempt; returns how many.

    Others (pending, sending, done) are left alone: they are on their way or finished. The
    chosen ones go back to `failed` with their attempts cleared, so that the claim in
    `send_purge` takes them.
    """
    with transaction.atomic():
        resendable = PurgeRequest.objects.filter(
            pk__in=pks, status__in=(PurgeStatus.FAILED, PurgeStatus.REFUSED))
        ids = list(resendable.values_list("pk", flat=True))
        resendable.update(status=PurgeStatus.FAILED, attempts=0, finished_at=None)
        for pk in ids:
            enqueue_purge(pk)
    return len(ids)
