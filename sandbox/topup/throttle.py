"""Code 510, queries too frequent: at most SEEK_LIMIT answered seekOrder calls per custno in
any SEEK_WINDOW_S seconds of the sandbox clock. A refused query is not counted, so a client
that backs off is served again as soon as the window has moved on."""

from __future__ import annotations

from django.db import transaction

from sandbox.topup.models import SeekQuery

SEEK_LIMIT = 10
SEEK_WINDOW_S = 60.0


def admit_seek(custno: str, now: float) -> bool:
    with transaction.atomic():  # IMMEDIATE: the count and the insert cannot interleave
        window_start = now - SEEK_WINDOW_S
        SeekQuery.objects.filter(at__lte=window_start).delete()
        if SeekQuery.objects.filter(custno=custno, at__gt=window_start).count() >= SEEK_LIMIT:
            return False
        SeekQuery.objects.create(custno=custno, at=now)
    return True
