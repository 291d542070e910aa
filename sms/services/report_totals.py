"""The delivery report's totals: how many messages of each status match the search.

A search with a mobile, a campaign or dates counts what their indexes select: one grouped
count, kept for TOTALS_TTL_S with the newest message id it saw, so paging through a search or
reloading it reuses it while no message was added (status changes show within TOTALS_TTL_S),
and a new message is counted on the next view, but at most once every RECOUNT_AFTER_S (during
an import every view would otherwise count again).

Without those filters (no filter, or a status alone) the count is of the whole table. While
that is quick it is made the same way; once a count takes BIG_COUNT_S or more (a million
messages and up) the page reads the figures kept in ReportTotals instead, and the beat job
`sms-count-report-totals` counts again in a worker, at most every RECOUNT_EVERY_S and with at
most MAX_COUNTING_SHARE of its time spent counting, so that a table ten times larger is
counted less often rather than at ten times the cost. Figures older than KEPT_TOO_LONG (the
beat not running) are counted by the page again.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Count, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from backoffice.operations import soft_cache
from sms.models import Message, MessageStatus, ReportTotals
from sms.services.search import UNKNOWN_STATUS, Filters, filtered

TOTALS_TTL_S = 60
RECOUNT_AFTER_S = 10  # new messages recount the totals at most this often
BIG_COUNT_S = 0.1
RECOUNT_EVERY_S = 60.0
MAX_COUNTING_SHARE = 0.05
KEPT_TOO_LONG = timedelta(minutes=15)
WHOLE_TABLE = 1  # ReportTotals' one row


@dataclass(frozen=True)
class StatusTotal:
    status: str  # a MessageStatus value, or UNKNOWN_STATUS for every status we do not know
    label: str
    count: int


def status_totals(filters: Filters) -> list[StatusTotal]:
    """How many messages of each status match `filters`, most frequent first."""
    if filters == Filters(status=filters.status):
        counts = _of_status(whole_table_counts(), filters.status)
    else:
        counts = _counted_search(filters)
    known = dict(MessageStatus.choices)
    merged: dict[str, int] = {}
    for status, count in counts.items():
        name = status if status in known else UNKNOWN_STATUS
        merged[name] = merged.get(name, 0) + count
    totals = [
        StatusTotal(
            status, str(known[status]) if status in known else _("Unknown status"), count
        )
        for status, count in merged.items()
    ]
    return sorted(totals, key=lambda total: (-total.count, total.status))


def _of_status(counts: dict[str, int], status: str) -> dict[str, int]:
    if status == UNKNOWN_STATUS:
        return {name: n for name, n in counts.items() if name not in MessageStatus.values}
    if status:
        return {name: n for name, n in counts.items() if name == status}
    return counts


def _counted_search(filters: Filters,
                    count: Callable[[Filters], dict[str, int]] | None = None) -> dict[str, int]:
    newest = Message.objects.aggregate(newest=Max("id"))["newest"] or 0
    key = f"sms:report-totals:{hashlib.sha256(repr(filters).encode()).hexdigest()}"
    kept = soft_cache.read(key)
    now = timezone.now().timestamp()
    if kept is not None and (kept["newest"] == newest or now - kept["at"] < RECOUNT_AFTER_S):
        return dict(kept["counts"])
    counts = (count or _count)(filters)
    soft_cache.write(key, {"newest": newest, "at": now, "counts": counts}, TOTALS_TTL_S)
    return counts


def _count(filters: Filters) -> dict[str, int]:
    return dict(filtered(filters).order_by().values_list("status").annotate(n=Count("id")))


def whole_table_counts() -> dict[str, int]:
    """Every message in the report by status: the kept figures once counting them is slow,
    else a count kept in the cache as for any search (and its time noted)."""
    kept = ReportTotals.objects.filter(pk=WHOLE_TABLE).first()
    if kept is not None and kept.took_s >= BIG_COUNT_S:
        if timezone.now() - kept.counted_at < KEPT_TOO_LONG:
            return dict(kept.counts)
        return count_whole_table()  # the beat stopped counting it
    # Counted as a search is, each count noting its time: the table may have grown big.
    return _counted_search(Filters(), count=lambda _filters: count_whole_table())


def count_whole_table() -> dict[str, int]:
    """Count every message in the report by status now, and keep the figures and the time it
    took (which decides whether the page counts or reads them)."""
    started = time.monotonic()
    counts = _count(Filters())
    ReportTotals.objects.update_or_create(pk=WHOLE_TABLE, defaults={
        "counts": counts, "counted_at": timezone.now(), "took_s": time.monotonic() - started})
    return counts


def recount_if_due() -> bool:
    """The beat job: count the whole table again when its figures are read from ReportTotals
    and are old enough (at least RECOUNT_EVERY_S, and 1 / MAX_COUNTING_SHARE times the last
    count's length). A small table is counted by the page itself: nothing to do."""
    kept = ReportTotals.objects.filter(pk=WHOLE_TABLE).first()
    if kept is None or kept.took_s < BIG_COUNT_S:
        return False
    due_after = max(RECOUNT_EVERY_S, kept.took_s / MAX_COUNTING_SHARE)
    if (timezone.now() - kept.counted_at).total_seconds() < due_after:
        return False
    count_whole_table()
    return True
