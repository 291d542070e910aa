"""Counting refused requests per address and minute, in the database.

Why the database and not the cache: the counts are evidence (the audit log reports each
minute's count once the minute is over, staff read them in the admin) and must be shared by
every web host; Redis may be down, and a refusal must still be counted then. A count is one
conditional UPDATE of one row (an INSERT for the first request of the minute), so a flood
grows a counter rather than a table. The cache is only a shortcut in front of it (see
`topup.services.apitokens`), never the record.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from backoffice.models import AddressTally
from backoffice.operations.metrics import REFUSED_REQUESTS


@dataclass(frozen=True)
class Tally:
    """One address's count of one kind in the current minute, this request included."""

    pk: int
    kind: str
    source: str
    minute: datetime
    count: int
    first: bool  # the first of the minute: the one whose record may be kept whole

    def seconds_left(self, now: datetime | None = None) -> int:
        """Until the minute ends (at least 1): a Retry-After for a refused client."""
        left = self.minute + timedelta(minutes=1) - (now or timezone.now())
        return max(1, int(left.total_seconds() + 0.999))


def source_of(address: str | None) -> str:
    """The counted source: an IPv4 address, an IPv6 address's /64 network, or "unknown"."""
    try:
        parsed = ipaddress.ip_address(address or "")
    except ValueError:
        return "unknown"
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def minute_of(moment: datetime) -> datetime:
    return moment.replace(second=0, microsecond=0)


def count(kind: str, address: str | None) -> Tally:
    """Counts one refused request of `kind` from `address`; safe under concurrency (the
    unique row per kind, source and minute decides who created it)."""
    REFUSED_REQUESTS.labels(kind).inc()
    source, minute = source_of(address), minute_of(timezone.now())
    row = AddressTally.objects.filter(kind=kind, address=source, minute=minute)
    first = False
    if not row.update(count=F("count") + 1):
        try:
            with transaction.atomic():
                AddressTally.objects.create(kind=kind, address=source, minute=minute, count=1)
            first = True
        except IntegrityError:  # another request created it meanwhile: count on it
            row.update(count=F("count") + 1)
    pk, total = row.values_list("pk", "count").get()
    return Tally(pk, kind, source, minute, total, first)


def samples_kept(tally: Tally) -> int:
    """How many sources kept a sample of this kind in the tally's minute."""
    return AddressTally.objects.filter(kind=tally.kind, minute=tally.minute,
                                       sample_id__isnull=False).count()


def name_sample(tally: Tally, sample_id: int) -> None:
    """Names the record kept whole for this source and minute (its first request)."""
    AddressTally.objects.filter(pk=tally.pk, sample_id__isnull=True).update(sample_id=sample_id)


def closed_minutes(kind: str, limit: int = 500) -> list[AddressTally]:
    """Counts of minutes that are over and not reported yet, oldest first."""
    return list(AddressTally.objects.filter(kind=kind, reported=False,
                                            minute__lt=minute_of(timezone.now()))
                .order_by("minute", "pk")[:limit])


def claim_report(tally: AddressTally) -> bool:
    """Marks a closed minute reported; True for the one caller that did (run by several
    workers, each minute is reported once)."""
    return bool(AddressTally.objects.filter(pk=tally.pk, reported=False).update(reported=True))


def forget_before(moment: datetime) -> int:
    """Deletes counts of minutes before `moment`; returns how many."""
    deleted, _by_model = AddressTally.objects.filter(minute__lt=moment).delete()
    return deleted
