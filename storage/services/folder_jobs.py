"""The sweep of folder jobs (the beat job `storage-resume-folder-jobs`): folder deletions,
copies and moves that lost their message or their worker are sent to a worker again.

Sending one again is harmless: the run takes the job's lease first (`job_lease`), so a
duplicate finds it taken and does nothing. A job whose runs died MAX_CLAIMS times is given up
(failed, with the reason, and audited) rather than sent for ever.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext

from storage.models import FolderDeletion, FolderTransfer
from storage.services import folder_deletion, folder_transfer, job_lease


def resume_folder_jobs() -> list[str]:
    """Send stalled folder jobs again; returns them as `deletion:<id>` / `transfer:<id>`."""
    _give_up_exhausted()
    # While no worker takes them, the copies lapse instead of piling up in the queue.
    expires = job_lease.stale_after().total_seconds()
    deletions = job_lease.stalled(FolderDeletion)
    transfers = job_lease.stalled(FolderTransfer)
    job_lease.mark_sent(FolderDeletion, deletions)
    job_lease.mark_sent(FolderTransfer, transfers)
    for pk in deletions:
        folder_deletion.enqueue_deletion(pk, expires=expires)
    for pk in transfers:
        folder_transfer.enqueue_transfer(pk, expires=expires)
    return [f"deletion:{pk}" for pk in deletions] + [f"transfer:{pk}" for pk in transfers]


def _give_up_exhausted() -> None:
    error = gettext("The job was interrupted too many times (its worker stopped each time); "
                    "ask for it again.")
    now = timezone.now()
    for pk in job_lease.exhausted(FolderDeletion, now):
        if FolderDeletion.objects.filter(pk=pk, state=FolderDeletion.State.RUNNING).update(
                state=FolderDeletion.State.FAILED, error=error, finished_at=now,
                lease_token="", lease_until=None):
            folder_deletion.audit_end(FolderDeletion.objects.get(pk=pk))
    for pk in job_lease.exhausted(FolderTransfer, now):
        if FolderTransfer.objects.filter(pk=pk, state=FolderTransfer.State.RUNNING).update(
                state=FolderTransfer.State.FAILED, error=error, finished_at=now,
                lease_token="", lease_until=None):
            job = FolderTransfer.objects.get(pk=pk)
            folder_transfer.audit_end(job, len(job.failures))
