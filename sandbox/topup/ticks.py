"""The top-up service's due events: outcomes first, so that their callbacks go out in the
same tick."""

from __future__ import annotations

from sandbox.topup import callbacks, progress


def tick(now: float) -> None:
    progress.settle_due(now)
    callbacks.send_due(now)
