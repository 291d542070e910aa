"""Cache refresh: manual purges from the purge page and automatic ones after storage changes.

Every purge is a `PurgeRequest` written before the provider is called. Sending claims the row
(`pending`/`failed` -> `sending`) with a conditional update, inside a lock that also counts the
URLs sent in the last minute, so the 600-URLs-a-minute limit (DECISIONS, purge) is kept here
rather than discovered as a 429. A manual request that would break it is refused before
anything is stored; an automatic one waits for room (the task retries with a countdown).
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

from django.db import transaction
from django.db.models import F, Sum
from django.utils import timezone

from backoffice.annotations import StaffUser
from backoffice.operations.queue import enqueue
from backoffice.security.audit import audited
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
    PurgeRequest,
    PurgeSource,
    PurgeStatus,
)
from delivery.services.connection import delivery_base_url, purge_client

logger = logging.getLogger(__name__)

MAX_URLS_PER_MINUTE = 600
WINDOW = timedelta(seconds=60)
MAX_ATTEMPTS = 5
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
    """Serialise window checks: lock the settings row (PostgreSQL); SQLite's IMMEDIATE
    transactions already serialise writers."""
    DeliverySettings.current()
    DeliverySettings.objects.select_for_update().filter(pk=DeliverySettings.SINGLETON_PK).get()


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


@audited("delivery", "purge", lambda urls, user: (None, f"purge of {len(urls)} URLs"),
         result_target=lambda request: request)
def request_manual_purge(urls: list[str], user: StaffUser) -> PurgeRequest:
    """Store and send a purge from the purge page. PurgeWindowFull (nothing stored) when the
    minute's room is too small; provider problems end up on the returned row."""
    purge_client()  # ProviderNotConfigured before anything is stored
    now = timezone.now()
    with transaction.atomic():
        _lock()
        _check_room(len(urls), now)
        request = PurgeRequest.objects.create(
            requested_by=user if getattr(user, "pk", None) else None,
            source=PurgeSource.MANUAL, urls="\n".join(urls), url_count=len(urls))
        _claim(request.pk, now)
    return _send_claimed(request.pk)


def file_urls(path: str) -> list[str]:
    """The edge URL of a stored file and of each of its custom image versions."""
    url = rules.edge_url(delivery_base_url(), path)
    separator = DeliverySettings.current().separator
    names = ImageVersion.objects.order_by("name").values_list("name", flat=True)
    return [url, *(f"{url}{separator}{name}" for name in names)]


def purge_file_urls(path: str, source: str = PurgeSource.AUTOMATIC) -> PurgeRequest:
    """Record an automatic purge of a file's URL and all its version URLs and send it after
    the current transaction commits (hook for storage's file_replaced / file_deleted)."""
    urls = file_urls(path)
    request = PurgeRequest.objects.create(
        source=source, path=path[:1024], urls="\n".join(urls), url_count=len(urls))
    enqueue_purge(request.pk)
    return request


def send_purge(pk: int) -> PurgeRequest | None:
    """Send a stored purge (task and beat entry point). PurgeWindowFull when there is no room
    yet (the row stays as it was); None when the row is final or taken by another worker."""
    now = timezone.now()
    with transaction.atomic():
        _lock()
        if not _claim(pk, now):
            return None
    return _send_claimed(pk)


def _send_claimed(pk: int) -> PurgeRequest:
    request = PurgeRequest.objects.get(pk=pk)
    try:
        result = purge_client().purge(request.url_list())
    except (PurgeRateLimited, DeliveryConnectionError) as error:
        _finish(pk, PurgeStatus.FAILED, error=str(error), answer=error.body)
    except PurgeRefused as error:
        # A server error may pass; anything else the provider will refuse again.
        retry = error.status is not None and error.status >= 500
        _finish(pk, PurgeStatus.FAILED if retry else PurgeStatus.REFUSED, error=str(error),
                answer=error.body)
    except (PurgeAuthError, DeliveryError) as error:
        _finish(pk, PurgeStatus.REFUSED, error=str(error), answer=error.body)
    except Exception as error:
        # Never leave a row in `sending` because of a local failure (settings removed, ...).
        _finish(pk, PurgeStatus.FAILED, error=f"{type(error).__name__}: {error}")
        raise
    else:
        _finish(pk, PurgeStatus.SENT, answer=json.dumps(dict(result.raw), ensure_ascii=False),
                invalid=list(result.invalid_domain_urls))
    return PurgeRequest.objects.get(pk=pk)


def _finish(pk: int, status: str, *, error: str = "", answer: str = "",
            invalid: list[str] | None = None) -> None:
    fields: dict[str, Any] = {"status": status, "error": error[:2000], "answer": answer[:4000]}
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
