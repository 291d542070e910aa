"""Housekeeping of uploads from local files (the beat jobs): re-enqueue those whose worker died
or whose message was lost, and remove local copies no upload needs any more."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from storage.models import UploadTask
from storage.services.uploads import enqueue_upload, upload_dir

logger = logging.getLogger(__name__)

# Queued tasks whose message may have been lost (broker down at enqueue) are sent again.
QUEUED_STALE_AFTER = timedelta(minutes=15)
ORPHAN_AGE = timedelta(days=1)


def recover_stalled_uploads() -> list[int]:
    """Re-enqueue uploads whose worker died (lease ran out) or whose message was lost; the
    claim makes a duplicate harmless. Returns the ids sent again."""
    now = timezone.now()
    stalled = UploadTask.objects.filter(
        Q(state=UploadTask.State.UPLOADING, lease_until__lt=now)
        | Q(state=UploadTask.State.QUEUED, updated_at__lt=now - QUEUED_STALE_AFTER),
        direct=False,  # browser uploads are carried by the browser, never by a worker
    ).values_list("pk", flat=True)
    ids = list(stalled)
    for pk in ids:
        enqueue_upload(pk)
    return ids


def remove_orphan_copies(max_age: timedelta = ORPHAN_AGE) -> int:
    """Delete local copies no upload needs any more (a request cut short, a crash between the
    copy and the task row). Only files older than `max_age` are considered."""
    directory = upload_dir()
    wanted = set(
        UploadTask.objects.filter(
            state__in=(
                UploadTask.State.QUEUED,
                UploadTask.State.UPLOADING,
                UploadTask.State.FAILED,
            )
        ).values_list("source", flat=True)
    )
    cutoff = time.time() - max_age.total_seconds()
    removed = 0
    for copy in directory.iterdir():
        if not copy.is_file() or str(copy) in wanted:
            continue
        try:
            if copy.stat().st_mtime < cutoff:
                copy.unlink()
                removed += 1
        except OSError:
            logger.exception("could not remove orphan copy %s", copy)
    return removed
