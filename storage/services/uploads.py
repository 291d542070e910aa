"""Uploads from a local file to the bucket, safe against crashes, lost connections and restarts.

(Uploads from a browser never touch a local disk: see `browser_uploads`.)

The intent (an UploadTask row and a local copy of the file) is saved before the provider is
called. A worker claims the task with a lease, sends the file (one PUT below the resumable
threshold, 1 MiB parts above it) and saves the provider's task uuid and next part after every
part, renewing its lease each time. When a worker dies, its lease runs out and the recovery job
hands the task to another worker, which resumes at the saved part; a transient provider failure
is retried a few times with growing delays; anything else leaves the task `failed` with a clear
error and its local copy kept, so a person can resume it with one click.
"""

from __future__ import annotations

import logging
import mimetypes
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext

from backoffice.operations.provider import ProviderNotConfigured
from backoffice.operations.queue import enqueue
from console.models import Service
from storage import paths, rules
from storage.client import (
    RETRYABLE_ERRORS,
    FileMD5Mismatch,
    MultipartCompleted,
    MultipartError,
    StorageClient,
    StorageError,
    ThemeColour,
    file_md5,
)
from storage.models import UploadTask
from storage.resumable import MAX_LENGTH, ResumableState, resumable_upload
from storage.services import extensions, mirror
from storage.services.connection import storage_client
from storage.services.details import FileDetails, fetch_details
from storage.services.private import refuse_private
from storage.texts import error_text

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

logger = logging.getLogger(__name__)

DEFAULT_RESUMABLE_THRESHOLD = 10 * 1024 * 1024
# A worker renews its lease after every part; one that has not for this long is presumed dead.
LEASE = timedelta(minutes=5)
# Automatic repeats of a transient failure (after the client's own quick retries), in seconds;
# all below the Redis broker's one-hour visibility timeout.
RETRY_DELAYS_S = (30, 120, 600)
# A task claimed this many times without finishing (its worker keeps dying) is given up.
MAX_CLAIMS = 10
PROGRESS_SAVE_INTERVAL_S = 0.5
# The provider takes at most 10,000 parts of 1 MiB per file (DECISIONS).
MAX_UPLOAD_BYTES = MAX_LENGTH

Progress = Callable[[UploadTask], None]


def resumable_threshold() -> int:
    """Files larger than this many bytes go in parts (setting STORAGE_RESUMABLE_THRESHOLD)."""
    return int(getattr(settings, "STORAGE_RESUMABLE_THRESHOLD", DEFAULT_RESUMABLE_THRESHOLD))


def upload_dir() -> Path:
    """Where the back-office keeps its copies of uploaded files until they reach the bucket."""
    directory = Path(settings.MEDIA_ROOT) / "uploads"
    directory.mkdir(parents=True, exist_ok=True)
    return directory


@dataclass(frozen=True)
class UploadOptions:
    """Validated headers for an upload: preprocessing, lifetime and metadata."""

    gmkerl: dict[str, str] = field(default_factory=dict)
    ttl_days: int | None = None
    metadata: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        problems = rules.check_gmkerl(self.gmkerl)
        meta: dict[str, object] = dict(self.metadata)
        if self.ttl_days is not None:
            meta[rules.TTL_NAME] = self.ttl_days
        problems += rules.check_metadata(meta)
        rules.require(problems)

    def as_json(self) -> dict[str, Any]:
        return {"gmkerl": self.gmkerl, "ttl_days": self.ttl_days, "metadata": self.metadata}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> UploadOptions:
        return cls(
            gmkerl=dict(data.get("gmkerl") or {}),
            ttl_days=data.get("ttl_days"),
            metadata=dict(data.get("metadata") or {}),
        )

    def all_metadata(self) -> dict[str, object]:
        entries: dict[str, object] = dict(self.metadata)
        if self.ttl_days is not None:
            entries[rules.TTL_NAME] = self.ttl_days
        return entries


def colour_records(colours: Iterable[ThemeColour]) -> list[dict[str, Any]]:
    """Theme colours as an upload's result keeps them (JSON): the provider's value, the CSS
    colour and the pixel count, most frequent first."""
    return [{"value": colour.value, "css": colour.css, "count": colour.count}
            for colour in colours]


def goes_resumable(size: int, options: UploadOptions) -> bool:
    """Above the threshold files go in parts, unless they ask for image preprocessing: the
    provider does not preprocess files uploaded in parts, so those go by one PUT."""
    return size > resumable_threshold() and not options.gmkerl


def guess_content_type(name: str, given: str | None) -> str:
    """The browser's type when it is a sendable header value, else one from the extension."""
    given = (given or "").strip()
    if given and given != "application/octet-stream" and not rules.check_meta_value(
        "Content-Type", given
    ):
        return given
    guessed, _encoding = mimetypes.guess_type(name)
    return guessed or ""


# --- creating ---------------------------------------------------------------------------------


def create_upload(
    service: Service,
    *,
    source: Path,
    target_path: str,
    original_name: str,
    size: int,
    md5: str = "",
    content_type: str | None = None,
    options: UploadOptions | None = None,
    user: User | AnonymousUser | None = None,
    remove_source: bool = True,
    enqueue: bool = True,
) -> UploadTask:
    """Save the intent to upload `source` to `target_path`; the task is queued after commit."""
    target = paths.canonical(target_path, allow_root=False)
    refuse_private(target)  # before the intent is saved: nothing of it is ever sent
    options = options or UploadOptions()
    task = UploadTask.objects.create(
        service=service,
        source=str(source),
        remove_source=remove_source,
        original_name=original_name,
        target_path=target,
        size=size,
        md5=md5,
        content_type=guess_content_type(original_name, content_type),
        resumable=goes_resumable(size, options),
        options=options.as_json(),
        created_by=user if user is not None and user.is_authenticated else None,
    )
    if enqueue:
        enqueue_upload(task.pk)
    return task


def local_file_upload(
    service: Service, source: Path, target_path: str, options: UploadOptions | None = None
) -> UploadTask:
    """The upload of a file on this machine (the upload command), not queued.

    An unfinished upload of the same file, size and options to the same target is reused, so
    running the command again after an interruption resumes at the saved part. The file is
    the user's own: it is never deleted.
    """
    source = source.resolve()
    size = source.stat().st_size
    target = paths.canonical(target_path, allow_root=False)
    refuse_private(target)  # before the intent is saved: nothing of it is ever sent
    options = options or UploadOptions()
    unfinished = (
        UploadTask.objects.filter(
            service=service,
            source=str(source),
            target_path=target,
            size=size,
            remove_source=False,
            state__in=(
                UploadTask.State.QUEUED,
                UploadTask.State.UPLOADING,
                UploadTask.State.FAILED,
            ),
        )
        .order_by("-created_at")
        .first()
    )
    if unfinished is not None and unfinished.options == options.as_json():
        UploadTask.objects.filter(pk=unfinished.pk, state=UploadTask.State.FAILED).update(
            state=UploadTask.State.QUEUED, attempts=0, updated_at=timezone.now()
        )
        unfinished.refresh_from_db()
        return unfinished
    with open(source, "rb") as file:
        md5 = file_md5(file)
    return create_upload(
        service,
        source=source,
        target_path=target,
        original_name=source.name,
        size=size,
        md5=md5,
        options=options,
        remove_source=False,
        enqueue=False,
    )


def enqueue_upload(pk: int, *, countdown: float | None = None) -> None:
    """Hand the task to a worker once the current transaction has committed."""
    enqueue("storage.tasks.upload_file", pk, countdown=countdown or 0)


def resume_upload(pk: int) -> bool:
    """Queue a failed upload again; it continues at its saved part. False if not failed.

    A browser upload is not queued: it is opened again for the browser's next part."""
    failed = UploadTask.objects.filter(pk=pk, state=UploadTask.State.FAILED)
    if failed.filter(direct=True).update(
        state=UploadTask.State.UPLOADING, error="", updated_at=timezone.now()
    ):
        return True
    resumed = failed.update(state=UploadTask.State.QUEUED, attempts=0, updated_at=timezone.now())
    if resumed:
        enqueue_upload(pk)
    return bool(resumed)


def can_cancel(task: UploadTask) -> bool:
    """Whether `cancel_upload` would take this task now (asked before the confirmation)."""
    return task.state in (UploadTask.State.QUEUED, UploadTask.State.FAILED) or (
        task.direct and task.state == UploadTask.State.UPLOADING)


def cancel_upload(pk: int) -> bool:
    """Give up a queued or failed upload and delete its local copy. A running one cannot be
    cancelled: its PUT may already be written at the provider. A browser upload can be while
    it is open: its parts are forwarded under a row lock, which this waits for."""
    task = UploadTask.objects.filter(pk=pk).first()
    cancellable = Q(state__in=(UploadTask.State.QUEUED, UploadTask.State.FAILED)) | Q(
        direct=True, state=UploadTask.State.UPLOADING
    )
    cancelled = UploadTask.objects.filter(cancellable, pk=pk).update(
        state=UploadTask.State.CANCELLED, finished_at=timezone.now(), lease_token="")
    if cancelled and task is not None:
        _remove_local_copy(task)
    return bool(cancelled)


# --- running ----------------------------------------------------------------------------------


class LeaseLost(Exception):
    """Another worker took the task over, or it was cancelled: stop without touching it."""


class LocalSourceMissing(Exception):
    """The local file to send is gone."""


class StoredFileMismatch(Exception):
    """The provider holds other bytes than the ones we sent."""


def _claim(pk: int) -> str | None:
    """Take the task if it is queued or its worker's lease ran out; returns our lease token."""
    now = timezone.now()
    token = uuid.uuid4().hex
    claimable = Q(state=UploadTask.State.QUEUED) | Q(
        Q(lease_until__lt=now) | Q(lease_until__isnull=True), state=UploadTask.State.UPLOADING
    )
    claimed = (
        UploadTask.objects.filter(claimable, pk=pk, direct=False)
        .filter(attempts__lt=MAX_CLAIMS)
        .update(
            state=UploadTask.State.UPLOADING,
            lease_token=token,
            lease_until=now + LEASE,
            attempts=F("attempts") + 1,
            updated_at=now,
        )
    )
    return token if claimed else None


class _Lease:
    """Saves progress under our lease; raises LeaseLost once the lease is no longer ours."""

    def __init__(self, task: UploadTask, token: str, on_progress: Progress | None) -> None:
        self.task = task
        self.token = token
        self.on_progress = on_progress
        self._last_save = 0.0

    def mine(self) -> Any:
        return UploadTask.objects.filter(
            pk=self.task.pk, lease_token=self.token, state=UploadTask.State.UPLOADING
        )

    def save(self, **values: Any) -> None:
        now = timezone.now()
        if not self.mine().update(lease_until=now + LEASE, updated_at=now, **values):
            raise LeaseLost(self.task.pk)
        for name, value in values.items():
            setattr(self.task, name, value)
        self._last_save = time.monotonic()
        if self.on_progress is not None:
            self.on_progress(self.task)

    def parts(self, state: ResumableState) -> None:
        self.save(uuid=state.uuid or "", next_part=state.next_part_id, bytes_sent=state.bytes_sent,
                  parallel=state.parallel, part_size=state.part_size)

    def bytes(self, sent: int) -> None:
        """Progress of a whole-file PUT, saved at most twice a second."""
        if time.monotonic() - self._last_save >= PROGRESS_SAVE_INTERVAL_S:
            self.save(bytes_sent=sent)

    def finish(self, **values: Any) -> bool:
        return bool(self.mine().update(lease_token="", lease_until=None, **values))


def run_upload(
    pk: int, *, on_progress: Progress | None = None, client: StorageClient | None = None
) -> UploadTask | None:
    """Send one queued (or abandoned) upload; returns the task, or None if it was not ours
    to run (already running elsewhere, finished, cancelled or given up).

    `on_progress(task)` is called after every saved step (the upload command's progress bar).
    """
    token = _claim(pk)
    if token is None:
        _give_up_if_exhausted(pk)
        return None
    task = UploadTask.objects.select_related("service").get(pk=pk)
    lease = _Lease(task, token, on_progress)
    try:
        storage = client or storage_client(task.service)
        if not Path(task.source).is_file():
            raise LocalSourceMissing(task.source)
        try:
            replaced, result = _transfer(storage, task, lease)
        except MultipartCompleted:
            # The completion went through but its answer was lost: the file is in place.
            replaced, result = True, {}
        details = fetch_details(storage, task.target_path)
        _verify(task, details.info.md5, details.info.size)
    except LeaseLost:
        logger.info("upload %s: lease lost, stopping", pk)
        return _reload(task)
    except KeyboardInterrupt:
        # Ctrl-C in the upload command: release the task at once (its saved part stays), so
        # the next run resumes instead of waiting for the lease to run out.
        _fail(lease, gettext("Interrupted; resume to continue at the saved part."))
        raise
    except RETRYABLE_ERRORS as error:
        _retry_or_fail(task, lease, error)
        return _reload(task)
    except FileMD5Mismatch as error:
        # The parts sent do not make the file we hold now: only a fresh start can fix that.
        _fail(lease, error_text(error, task.target_path), uuid="", next_part=0, bytes_sent=0)
        return _reload(task)
    except (StorageError, ProviderNotConfigured, rules.RuleViolation) as error:
        _fail(lease, error_text(error, task.target_path) + _overwrite_hint(error))
        return _reload(task)
    except LocalSourceMissing:
        _fail(lease, gettext("The local copy of the file is missing; upload it again."))
        return _reload(task)
    except StoredFileMismatch as error:
        _fail(lease, gettext("The provider holds different bytes: %(detail)s") % {
            "detail": str(error)
        })
        return _reload(task)
    except (OSError, ValueError) as error:
        _fail(lease, gettext("The local file could not be read: %(detail)s") % {
            "detail": str(error)
        })
        return _reload(task)
    _succeed(task, lease, replaced, result, details)
    return _reload(task)


def _transfer(
    client: StorageClient, task: UploadTask, lease: _Lease
) -> tuple[bool, dict[str, Any]]:
    """Send the file; returns (replaced an existing file, facts the provider reported)."""
    options = UploadOptions.from_json(task.options)
    if task.resumable:
        state = ResumableState(
            uuid=task.uuid or None, next_part_id=task.next_part, bytes_sent=task.bytes_sent,
            parallel=task.parallel, part_size=task.part_size,
        )
        status = resumable_upload(
            client,
            task.target_path,
            task.source,
            state=state,
            on_progress=lease.parts,
            content_type=task.content_type or None,
            metadata=options.all_metadata(),
            known_md5=task.md5 or None,  # hashed when the file was received
            parts_in_flight=settings.STORAGE_UPLOAD_PARTS_IN_FLIGHT,
        )
        return status == 204, {}
    replaced = client.exists(task.target_path)
    with open(task.source, "rb") as file:
        md5 = task.md5 or file_md5(file)
        reader = ProgressReader(file, lease.bytes)
        answer = client.upload(
            task.target_path,
            reader,  # type: ignore[arg-type]  # a binary file-like object
            content_type=task.content_type or None,
            content_md5=md5,
            metadata=options.metadata,
            ttl_days=options.ttl_days,
            gmkerl=options.gmkerl,
        )
    result: dict[str, Any] = {
        key: value
        for key, value in (
            ("width", answer.width),
            ("height", answer.height),
            ("file_type", answer.file_type),
            ("frames", answer.frames),
        )
        if value is not None
    }
    if answer.colours is not None:
        result["colours"] = colour_records(answer.colours)
    return replaced, result


def _verify(task: UploadTask, md5: str | None, size: int | None) -> None:
    """After a plain copy the provider must hold exactly our bytes (preprocessing rewrites
    images, so those are not compared)."""
    if task.options.get("gmkerl"):
        return
    if size is not None and size != task.size:
        raise StoredFileMismatch(f"{size} bytes stored, {task.size} sent")
    if md5 and task.md5 and md5.lower() != task.md5.lower():
        raise StoredFileMismatch(f"MD5 {md5} stored, {task.md5} sent")


def _succeed(
    task: UploadTask, lease: _Lease, replaced: bool, result: dict[str, Any], details: FileDetails
) -> None:
    now = timezone.now()
    finished = lease.finish(
        state=UploadTask.State.DONE,
        bytes_sent=task.size,
        next_part=-1 if task.resumable else 0,
        error="",
        result={**result, "replaced": replaced},
        finished_at=now,
        updated_at=now,
    )
    if not finished:
        return
    _remove_local_copy(task)
    mirror.record_folder(task.service, paths.parent_of(task.target_path))
    mirror.record_details(task.service, details)
    extensions.send(
        extensions.file_uploaded,
        task.service,
        task.target_path,
        size=task.size,
        content_type=details.content_type,
        replaced=replaced,
    )
    if replaced:
        extensions.send(extensions.file_replaced, task.service, task.target_path)


def _fail(lease: _Lease, message: str, **values: Any) -> None:
    logger.warning("upload %s failed: %s", lease.task.pk, message)
    now = timezone.now()
    lease.finish(state=UploadTask.State.FAILED, error=message, updated_at=now, **values)


def _retry_or_fail(task: UploadTask, lease: _Lease, error: StorageError) -> None:
    text = error_text(error, task.target_path)
    attempt = UploadTask.objects.filter(pk=task.pk).values_list("attempts", flat=True).first()
    if attempt is None or attempt > len(RETRY_DELAYS_S):
        _fail(lease, text)
        return
    delay = RETRY_DELAYS_S[attempt - 1]
    retry_note = gettext("%(error)s Trying again in %(seconds)s s.") % {
        "error": text,
        "seconds": delay,
    }
    if lease.finish(state=UploadTask.State.QUEUED, error=retry_note, updated_at=timezone.now()):
        enqueue_upload(task.pk, countdown=delay)


# "storage bad request": the provider's answer for a cause its error table has no row for.
BAD_REQUEST_CODE = 40000000


def _overwrite_hint(error: BaseException) -> str:
    """A plain upload refused over an existing file: the provider keeps files written in parts
    from other upload methods. Its error table has no row for that cause, so the answer is
    40000000 "storage bad request" (DECISIONS.md), or a 403 of no other meaning."""
    if isinstance(error, MultipartError) or not isinstance(error, StorageError):
        return ""
    unexplained_403 = error.status == 403 and error.code not in (40300005, 40300016)
    if error.code == BAD_REQUEST_CODE or unexplained_403:
        return " " + gettext(
            "A file uploaded in parts cannot be overwritten by a single upload: delete it first."
        )
    return ""


def _reload(task: UploadTask) -> UploadTask:
    task.refresh_from_db()
    return task


def _remove_local_copy(task: UploadTask) -> None:
    if not task.remove_source:
        return
    try:
        Path(task.source).unlink(missing_ok=True)
    except OSError:
        logger.exception("could not remove the local copy %s", task.source)


def _give_up_if_exhausted(pk: int) -> None:
    """A task whose workers died MAX_CLAIMS times is failed, not claimed forever."""
    UploadTask.objects.filter(
        pk=pk, state=UploadTask.State.UPLOADING, attempts__gte=MAX_CLAIMS,
        lease_until__lt=timezone.now(),
    ).update(
        state=UploadTask.State.FAILED,
        lease_token="",
        error=gettext("The upload was interrupted too many times; resume it to try again."),
        updated_at=timezone.now(),
    )


class ProgressReader:
    """A binary file that reports how far it has been read, for the progress of one PUT.

    The client reads its body through `read`; a retry seeks back to the start, so the position
    (not a running total) is what is reported.
    """

    mode = "rb"

    def __init__(self, file: IO[bytes], report: Callable[[int], None]) -> None:
        self._file = file
        self._report = report

    def read(self, size: int = -1) -> bytes:
        data = self._file.read(size)
        self._report(self._file.tell())
        return data

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._file.seek(offset, whence)

    def tell(self) -> int:
        return self._file.tell()

    def seekable(self) -> bool:
        return True
