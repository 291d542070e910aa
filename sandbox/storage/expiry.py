"""Due events of the storage service, run by the sandbox ticker and after every clock advance:
TTL expiry of files, asynchronous deletes, and the 24-hour expiry of resumable uploads.

Each step is idempotent and claims its work with conditional deletes, so a run racing a request
(an upload replacing the file, a delete getting there first) does no harm.
"""

from __future__ import annotations

from django.db import transaction

from sandbox.storage import disk, multipart
from sandbox.storage.models import Entry, PendingDelete


def run_due(now: float) -> None:
    expire_files(now)
    run_pending_deletes(now)
    multipart.expire(now)


def expire_files(now: float) -> None:
    """Files whose `x-svc-meta-ttl` has run out are removed (their folders stay)."""
    due = Entry.objects.filter(is_folder=False, expires_at__lte=now).values_list("pk", "blob")
    for pk, blob in list(due):
        deleted, _ = Entry.objects.filter(pk=pk, blob=blob, expires_at__lte=now).delete()
        if deleted:
            disk.remove_blob(blob)


def run_pending_deletes(now: float) -> None:
    for pending_id in list(PendingDelete.objects.filter(due_at__lte=now)
                           .values_list("pk", flat=True)):
        blob = carry_out(pending_id)
        if blob:
            disk.remove_blob(blob)


def carry_out(pending_id: int) -> str:
    """Delete the entry if it is still what was asked to be deleted; the removed blob or ''."""
    with transaction.atomic():
        pending = PendingDelete.objects.select_related("entry").filter(pk=pending_id).first()
        if pending is None:
            return ""
        entry = pending.entry
        unchanged = entry.blob == pending.blob
        if entry.is_folder:
            unchanged = not Entry.objects.filter(bucket=entry.bucket, parent=entry.path).exists()
        if not unchanged:
            pending.delete()
            return ""
        entry.delete()  # takes the pending row with it
        return entry.blob
