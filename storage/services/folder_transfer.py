"""A folder copied or moved with everything in it, by a worker, file by file.

The worker walks the source (every level, page by page), creates the target's folders, then
copies each file on the provider's side. A move is a copy of everything first; only when every
copy was confirmed (the provider answered it) are the source's files deleted, then its
folders from the deepest up. A copy that fails is kept with its path and reason, the others go
on, and then nothing of the source is deleted: a failed folder move leaves the source complete
(docs/decisions.md). The moved files' edge URLs are purged together (`job_purge`: a few
requests of up to 600 URLs, not one request a file).

A run holds the job's lease (`job_lease`) and saves with each step's progress the last file
whose copy was confirmed, the failures so far, and whether every copy was (a move's deleting
phase): a worker killed mid-run is noticed, and the run the sweep starts goes on from there,
deleting nothing whose copy is not confirmed.

The start and the end are audited, as for a folder deletion; the single copies are not.
"""

from __future__ import annotations

import logging
from collections import deque
from typing import Any

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
from storage import client as storage_errors
from storage import paths, rules
from storage.client import FolderExists, NotFound, StorageClient, StorageError
from storage.models import FolderTransfer
from storage.services import job_lease, mirror
from storage.services.connection import storage_client
from storage.services.job_purge import PurgeList, announce_replaced
from storage.services.transfers import Plan
from storage.texts import error_text

logger = logging.getLogger(__name__)

LIST_PAGE_SIZE = 1000
PROGRESS_EVERY = 20
FAILURES_KEPT = 1000  # a summary, not a log: the count says how many more there were
PROBLEMS = (StorageError, rules.RuleViolation)


def _walk(client: StorageClient, root: str
          ) -> tuple[list[mirror.Transferred], list[str]]:
    """(files below `root` with their listing facts, folders below it parents first). The
    targets are filled in by the caller."""
    files: list[mirror.Transferred] = []
    folders: list[str] = []
    waiting: deque[str] = deque([root])
    while waiting:
        folder = waiting.popleft()
        cursor: str | None = None
        while True:
            page = client.list_page(folder, cursor=cursor, limit=LIST_PAGE_SIZE)
            for item in page.items:
                path = paths.join(folder, item.name)
                if item.is_folder:
                    folders.append(path)
                    waiting.append(path)
                else:
                    files.append(mirror.Transferred(path, "", item.size,
                                                    item.content_type or ""))
            if page.is_last or page.next_iter == cursor or not page.next_iter:
                break
            cursor = page.next_iter
    return files, folders


def _moved(path: str, source: str, target: str) -> str:
    return target + path[len(source):]


def start_folder_transfer(plan: Plan, by: StaffUser | None) -> FolderTransfer:
    """Record the job, audit its start and queue it for a worker. A rename of a folder is a
    move (within its folder)."""
    if not plan.is_folder:
        raise ValueError("a file goes by transfer_file")
    kind = FolderTransfer.Kind.COPY if plan.kind == "copy" else FolderTransfer.Kind.MOVE
    job = FolderTransfer.objects.create(
        service=plan.service, kind=kind, source=plan.source, target=plan.target,
        replace=plan.target_exists, files_total=plan.count.files if plan.count else 0,
        created_by=by)
    record("storage", f"folder.{kind}", target=_named(plan.service, plan.source), user=by,
           summary=f"to {plan.target}, {job.files_total} files, in the background")
    enqueue_transfer(job.pk)
    return job


def enqueue_transfer(job_id: int, expires: float | None = None) -> None:
    enqueue("storage.tasks.transfer_folder", job_id, expires=expires)


def _named(service: Service, path: str) -> str:
    return f"/{service.name}{path}"


def _failure(path: str, target: str, phase: str, error: Exception) -> dict[str, Any]:
    """What the page needs to say why, in the reader's language: the provider's error as
    it came (rebuilt by `failure_error`), or our own sentence for a refused path."""
    entry: dict[str, Any] = {"path": path, "target": target, "phase": phase,
                             "kind": type(error).__name__, "text": error_text(error, path)}
    if isinstance(error, StorageError):
        entry.update(code=error.code, status=error.status, msg=error.msg, detail=error.detail,
                     request_id=error.request_id)
    return entry


def failure_error(entry: dict[str, Any]) -> StorageError | None:
    """The provider's error a failure entry recorded (None for our own refusals)."""
    if "msg" not in entry:
        return None
    cls = getattr(storage_errors, str(entry.get("kind")), StorageError)
    if not (isinstance(cls, type) and issubclass(cls, StorageError)):
        cls = StorageError
    return cls(str(entry["msg"]), code=entry.get("code"), status=int(entry.get("status") or 0),
               detail=str(entry.get("detail") or ""), request_id=entry.get("request_id"))


class _Run:
    def __init__(self, job: FolderTransfer, client: StorageClient,
                 lease: job_lease.Lease) -> None:
        self.job, self.client, self.lease = job, client, lease
        self.service, self.source, self.target = job.service, job.source, job.target
        # A run that died kept its failures in the row (saved with each step's progress).
        self.failures: list[dict[str, Any]] = list(job.failures)
        self.failed = len(self.failures)

    def fail(self, path: str, target: str, phase: str, error: Exception) -> None:
        logger.info("folder %s of %s: %s failed: %s", self.job.kind, path, phase, error)
        self.failed += 1
        if len(self.failures) < FAILURES_KEPT:
            self.failures.append(_failure(path, target, phase, error))

    def progress(self, counts: dict[str, int], **values: Any) -> None:
        """Counts added, the failures so far and `values` saved, under the lease."""
        self.lease.write(failures=self.failures, **values,
                         **{name: F(name) + count for name, count in counts.items() if count})

    def existing_files(self) -> set[str]:
        try:
            return {item.source for item in _walk(self.client, self.target)[0]}
        except NotFound:
            return set()

    def make_folders(self, folders: list[str]) -> None:
        for folder in [self.target, *(_moved(f, self.source, self.target) for f in folders)]:
            try:
                self.client.create_folder(folder)
            except FolderExists:
                pass
            except PROBLEMS as error:
                self.fail(folder, folder, "folder", error)
                continue
            mirror.record_folder(self.service, folder)

    def copy_all(self, files: list[mirror.Transferred]) -> list[mirror.Transferred]:
        """Copy each file, from where a run that died stopped (`copied_up_to`: the files up to
        it were confirmed; those after it, up to PROGRESS_EVERY - 1, are copied again, which
        writes the same bytes to the same place)."""
        sources = [item.source for item in files]
        start = (sources.index(self.job.copied_up_to) + 1
                 if self.job.copied_up_to in sources else 0)
        failed = {entry["path"] for entry in self.failures}
        copied = [item for item in files[:start] if item.source not in failed]
        for first in range(start, len(files), PROGRESS_EVERY):
            step = files[first:first + PROGRESS_EVERY]
            done = 0
            for item in step:
                try:
                    self.client.copy(item.source, item.target)
                except PROBLEMS as error:
                    self.fail(item.source, item.target, "copy", error)
                else:
                    copied.append(item)
                    done += 1
            self.progress({"files_copied": done}, copied_up_to=step[-1].source)
        mirror.record_transferred(self.service, copied, sources_gone=False)
        return copied

    def delete_sources(self, copied: list[mirror.Transferred], folders: list[str]) -> None:
        purge = PurgeList(self.lease, self.service, self.source, self.job.purge_paths,
                          still_there=[item.source for item in copied], moved_to=self.target)
        for first in range(0, len(copied), PROGRESS_EVERY):
            step = copied[first:first + PROGRESS_EVERY]
            purge.before_deleting([item.source for item in step])
            deleted: list[mirror.Transferred] = []
            for item in step:
                try:
                    self.client.delete(item.source)
                except NotFound:
                    pass  # gone meanwhile: its copy is at the target all the same
                except PROBLEMS as error:
                    self.fail(item.source, item.target, "delete", error)
                    continue
                deleted.append(item)
            self.progress({"files_removed": len(deleted)})
            mirror.record_transferred(self.service, deleted, sources_gone=True)
            purge.after_deleting()
        purge.announce()
        for folder in [*reversed(folders), self.source]:
            try:
                self.client.remove_folder(folder)
            except NotFound:
                pass
            except PROBLEMS as error:
                self.fail(folder, _moved(folder, self.source, self.target), "delete", error)
                continue
            mirror.record_gone(self.service, folder)


def run_folder_transfer(job_id: int) -> FolderTransfer:
    """The worker's part. It takes the job's lease first: a duplicate delivery of a job
    another run holds (or one already finished) does nothing; a job whose worker died is
    taken over and goes on where that run's saved progress says."""
    # Read after the claim: a run taking over goes on from what the dead one saved.
    job_lease.run_leased(FolderTransfer, job_id, lambda lease: _transfer(_job(job_id), lease))
    return _job(job_id)


def _job(job_id: int) -> FolderTransfer:
    return FolderTransfer.objects.select_related("service", "created_by").get(pk=job_id)


def _transfer(job: FolderTransfer, lease: job_lease.Lease) -> None:
    """Copy (and for a move, then delete) what is left, then end the job."""
    run: _Run | None = None
    state, error = FolderTransfer.State.COMPLETED, ""
    try:
        run = _Run(job, storage_client(job.service), lease)
        listed, folders = _walk(run.client, job.source)
        files = [mirror.Transferred(item.source, _moved(item.source, job.source, job.target),
                                    item.size, item.content_type) for item in listed]
        if job.copied_all:
            # A move whose every copy was confirmed by a run that died while deleting: what
            # is still at the source is deleted, nothing is copied again.
            lease.write(files_removed=Greatest(F("files_removed"),
                                               job.files_copied - len(files)))
            run.delete_sources(files, folders)
        else:
            lease.write(files_total=len(files))
            there = run.existing_files() if job.replace else set()
            run.make_folders(folders)
            copied = run.copy_all(files)
            announce_replaced(job.service, job.target,
                              [item.target for item in copied if item.target in there])
            # Nothing of the source goes unless every file and folder arrived at the target.
            if job.is_move and not run.failed:
                lease.write(copied_all=True)
                run.delete_sources(copied, folders)
        if run.failed:
            state = FolderTransfer.State.FAILED
    except (StorageError, ProviderNotConfigured, rules.RuleViolation) as failure:
        logger.warning("folder %s of %s failed: %s", job.kind, job.source, failure)
        state, error = FolderTransfer.State.FAILED, error_text(failure, job.source)
    # The end and its audit entry together: a worker killed between them would leave a
    # finished job whose end is never audited.
    with transaction.atomic():
        if not lease.finish(state=state, error=error, failures=run.failures if run else [],
                            finished_at=timezone.now()):
            raise job_lease.LeaseLost(job.pk)
        job.refresh_from_db()
        audit_end(job, run.failed if run else 0)


def audit_end(job: FolderTransfer, failed: int) -> None:
    completed = job.state == FolderTransfer.State.COMPLETED
    summary = f"{job.files_copied} of {job.files_total} files copied to {job.target}"
    if job.is_move:
        summary += f", {job.files_removed} source files deleted"
    if failed:
        summary += f"; {failed} failed"
        if job.is_move:
            summary += ", so nothing of the source was deleted" if not job.files_removed else ""
    if job.error:
        summary += f"; stopped: {job.error}"
    record("storage", f"folder.{job.kind}.end", target=_named(job.service, job.source),
           summary=summary, outcome=AuditOutcome.OK if completed else AuditOutcome.FAILED,
           user=job.created_by)
