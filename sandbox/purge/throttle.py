"""The purge rate limit: at most 600 URLs a minute (DECISIONS.md).

A sliding window of 60 s on the sandbox clock over the accepted requests: a request whose URLs
(every line sent, valid or not) would take the last minute's total above 600 is refused whole
with 406 (api/purge.md), and counts for nothing. Checked and recorded in one IMMEDIATE
transaction, so parallel requests cannot both squeeze under the limit.
"""

from __future__ import annotations

from django.db.models import Sum

from sandbox.purge.models import PurgeRequest

LIMIT_URLS = 600
WINDOW_S = 60.0


def used(now: float) -> int:
    """URLs accepted in the window ending at `now` (call inside the transaction)."""
    total = PurgeRequest.objects.filter(at__gt=now - WINDOW_S).aggregate(total=Sum("url_count"))
    return int(total["total"] or 0)


def allows(now: float, count: int) -> bool:
    return used(now) + count <= LIMIT_URLS
