"""A folder with files in it: counted before staff are asked (never a question whose answer
the provider will refuse), then deleted with everything in it by a worker, with progress.

The provider removes only empty folders (40300005 directory not empty), so the worker walks
the tree (live, from the provider), deletes every file, then each folder from the deepest up,
then the folder itself. The start and the end are audited; the single deletes are not (a
folder of 10,000 files would bury the log), their count is in the end's entry. The deleted
files' edge URLs are purged together (`job_purge`), as a single delete purges its file's.

A run holds the job's lease (`job_lease`): a worker killed mid-run is noticed and the sweep
hands the job to another, which walks what is left and goes on; a job whose message was lost
is sent again. Deleting is repeatable (a file already gone counts as deleted).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone

from backoffice.annotations import StaffUser
from backoffice.models import AuditOutcome
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.operations.queue import enqueue
from backoffice.security.audit import record
from console.models import Service
from storage import paths, rules
from storage.client import NotFound, StorageClient, StorageError
from storage.models import FolderDeletion
from storage.services import job_lease, mirror
from storage.services.connection import storage_client
from storage.services.files import target
from storage.services.job_purge import PurgeList
from storage.texts import error_text

logger = logging.getLogger(__name__)

LIST_PAGE_SIZE = 1000
# Progress is written every this many files: the page polls it, the database need not see
# every one.
PROGRESS_EVERY = 20


@dataclass(frozen=True)
class TreeCount:
    files: int
    folders: int  # below the folder itself

    @property
    def empty(self) -> bool:
        return self.files == 0 and self.folders == 0


def _entries(client: StorageClient, folder: str) -> Iterator[tuple[bool, str]]:
    cursor: str | None = None
    while True:
        page = client.list_page(folder, cursor=cursor, limit=LIST_PAGE_SIZE)
        for item in page.items:
            yield item.is_folder, paths.join(folder, item.name)
        if page.is_last or page.next_iter == cursor or not page.next_iter:
            return
        cursor = page.next_iter


def _tree(client: StorageClient, root: str) -> tuple[list[str], list[str]]:
    """(files, folders below `root` in walking order: parents before children)."""
    files: list[str] = []
    folders: list[str] = []
    waiting: deque[str] = deque([root])
    while waiting:
        folder = waiting.popleft()
        for is_folder, path in _entries(client, folder):
            if is_folder:
                folders.append(path)
                waiting.append(path)
            else:
                files.append(path)
    return files, folders


def count_tree(service: Service, path: str, *, client: StorageClient | None = None) -> TreeCount:
    """What is in folder `path`, counted at the provider now."""
    path = paths.canonical(path, allow_root=False)
    files, folders = _tree(client or storage_client(service), path)
    return TreeCount(len(files), len(folders))


def start_folder_deletion(service: Service, path: str, files: int,
                          by: StaffUser | None) -> FolderDeletion:
    """Record the job, audit its start, and queue it for a worker (audited before it is
    queued: a worker, or an eager run, may finish it at once). Should the message be lost
    (the broker down), the sweep sends it again (`job_lease`)."""
    path = paths.canonical(path, allow_root=False)
    deletion = FolderDeletion.objects.create(service=service, path=path, files_total=files,
                                             created_by=by)
    record("storage", "folder.delete_tree", target=target(service, path), user=by,
           summary=f"folder and its {files} files to be deleted in the background")
    enqueue_deletion(deletion.pk)
    return deletion


def enqueue_deletion(deletion_id: int, expires: float | None = None) -> None:
    enqueue("storage.tasks.delete_folder_tree", deletion_id, expires=expires)


def run_folder_deletion(deletion_id: int) -> FolderDeletion:
    """The worker's part. It takes the job's lease first: a duplicate delivery of a job
    another run holds (or one already finished) does nothing; a job whose worker died is
    taken over and goes on with what is left at the provider."""
    # Read after the claim: a run taking over goes on from what the dead one saved.
    job_lease.run_leased(FolderDeletion, deletion_id, lambda lease: _delete_tree(
        FolderDeletion.objects.select_related("service").get(pk=deletion_id), lease))
    return FolderDeletion.objects.select_related("service").get(pk=deletion_id)


def _delete_tree(deletion: FolderDeletion, lease: job_lease.Lease) -> None:
    service, root = deletion.service, deletion.path
    state, error = FolderDeletion.State.COMPLETED, ""
    try:
        client = storage_client(service)
        try:
            files, folders = _tree(client, root)
        except NotFound:
            files, folders = [], []  # gone already: nothing left to do but say so
        if deletion.claims > 1:
            # Taken over from a run that died: the files it deleted after its last saved step
            # are gone too, and count (a file removed meanwhile counts as deleted anyway).
            lease.write(files_done=Greatest(F("files_done"), deletion.files_total - len(files)))
        purge = PurgeList(lease, service, root, deletion.purge_paths, still_there=files)
        for start in range(0, len(files), PROGRESS_EVERY):
            step = files[start:start + PROGRESS_EVERY]
            purge.before_deleting(step)
            for path in step:
                try:
                    client.delete(path)
                except NotFound:
                    pass  # removed meanwhile: as good as deleted
            lease.write(files_done=F("files_done") + len(step))
            purge.after_deleting()
        purge.announce()
        for path in [*reversed(folders), root]:
            try:
                client.remove_folder(path)
            except NotFound:
                pass
            lease.write(folders_done=F("folders_done") + 1)
        mirror.record_gone(service, root)
    except (StorageError, ProviderNotConfigured, rules.RuleViolation) as failure:
        logger.warning("deleting the folder %s failed: %s", root, failure)
        state, error = FolderDeletion.State.FAILED, error_text(failure, root)
    # The end and its audit entry together: a worker killed between them would leave a
    # finished job whose end is never audited.
    with transaction.atomic():
        if not lease.finish(state=state, error=error, finished_at=timezone.now()):
            raise job_lease.LeaseLost(deletion.pk)
        deletion.refresh_from_db()
        audit_end(deletion)


def audit_end(deletion: FolderDeletion) -> None:
    completed = deletion.state == FolderDeletion.State.COMPLETED
    record("storage", "folder.delete_tree.end", target=target(deletion.service, deletion.path),
           summary=f"{deletion.files_done} files and {deletion.folders_done} folders deleted"
                   + ("" if completed else f"; stopped: {deletion.error}"),
           outcome=AuditOutcome.OK if completed else AuditOutcome.FAILED,
           user=deletion.created_by)
