"""A folder copied or moved with everything in it, by a worker, file by file.

The worker walks the source (every level, page by page), creates the target's folders, then
copies each file on the provider's side. A move is a copy of everything first; only when every
copy was confirmed (the provider answered it) are the source's files deleted, each announced
as deleted so that its edge URLs are purged, then its folders from the deepest up. A copy
that fails is kept with its path and reason, the others go on, and then nothing of the source
is deleted: a failed folder move leaves the source complete (docs/decisions.md).

The start and the end are audited, as for a folder deletion; the single copies are not.
"""

from __future__ import annotations

import logging
from collections import deque
from typing import Any

from django.db.models import F
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
from storage.services import extensions, mirror
from storage.services.connection import storage_client
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
    enqueue("storage.tasks.transfer_folder", job.pk)
    return job


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
    def __init__(self, job: FolderTransfer, client: StorageClient) -> None:
        self.job, self.client = job, client
        self.service, self.source, self.target = job.service, job.source, job.target
        self.failures: list[dict[str, Any]] = []
        self.failed = 0

    def fail(self, path: str, target: str, phase: str, error: Exception) -> None:
        logger.info("folder %s of %s: %s failed: %s", self.job.kind, path, phase, error)
        self.failed += 1
        if len(self.failures) < FAILURES_KEPT:
            self.failures.append(_failure(path, target, phase, error))

    def progress(self, **counts: int) -> None:
        FolderTransfer.objects.filter(pk=self.job.pk).update(
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
        copied: list[mirror.Transferred] = []
        pending = 0
        for item in files:
            try:
                self.client.copy(item.source, item.target)
            except PROBLEMS as error:
                self.fail(item.source, item.target, "copy", error)
            else:
                copied.append(item)
                pending += 1
            if pending == PROGRESS_EVERY:
                self.progress(files_copied=pending)
                pending = 0
        self.progress(files_copied=pending)
        mirror.record_transferred(self.service, copied, sources_gone=False)
        return copied

    def delete_sources(self, copied: list[mirror.Transferred], folders: list[str]) -> None:
        deleted: list[mirror.Transferred] = []
        pending = 0
        for item in copied:
            try:
                self.client.delete(item.source)
            except NotFound:
                pass  # gone meanwhile: its copy is at the target all the same
            except PROBLEMS as error:
                self.fail(item.source, item.target, "delete", error)
                continue
            deleted.append(item)
            extensions.send(extensions.file_deleted, self.service, item.source,
                            asynchronous=False, moved_to=item.target)
            pending += 1
            if pending == PROGRESS_EVERY:
                self.progress(files_removed=pending)
                pending = 0
        self.progress(files_removed=pending)
        mirror.record_transferred(self.service, deleted, sources_gone=True)
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
    """The worker's part; a duplicate delivery of a job already taken does nothing."""
    taken = FolderTransfer.objects.filter(
        pk=job_id, state=FolderTransfer.State.QUEUED).update(state=FolderTransfer.State.RUNNING)
    job = FolderTransfer.objects.select_related("service", "created_by").get(pk=job_id)
    if not taken:
        return job
    run: _Run | None = None
    try:
        run = _Run(job, storage_client(job.service))
        listed, folders = _walk(run.client, job.source)
        files = [mirror.Transferred(item.source, _moved(item.source, job.source, job.target),
                                    item.size, item.content_type) for item in listed]
        FolderTransfer.objects.filter(pk=job.pk).update(files_total=len(files))
        there = run.existing_files() if job.replace else set()
        run.make_folders(folders)
        copied = run.copy_all(files)
        for item in copied:
            if item.target in there:
                extensions.send(extensions.file_replaced, job.service, item.target)
        # Nothing of the source goes unless every file and folder arrived at the target.
        if job.is_move and not run.failed:
            run.delete_sources(copied, folders)
        job.state = (FolderTransfer.State.FAILED if run.failed
                     else FolderTransfer.State.COMPLETED)
    except (StorageError, ProviderNotConfigured, rules.RuleViolation) as failure:
        logger.warning("folder %s of %s failed: %s", job.kind, job.source, failure)
        job.state = FolderTransfer.State.FAILED
        job.error = error_text(failure, job.source)
    job.failures = run.failures if run else []
    job.finished_at = timezone.now()
    job.save(update_fields=["state", "error", "failures", "finished_at"])
    job.refresh_from_db()
    _audit_end(job, run.failed if run else 0)
    return job


def _audit_end(job: FolderTransfer, failed: int) -> None:
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
