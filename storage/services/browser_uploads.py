"""Browser uploads sent part by part through whichever web node receives each request.

Nothing is kept on any node's disk between requests, so web nodes may run on different hosts:
the browser sends 1 MiB parts (or, up to the resumable threshold, the whole file in one
request) and the node that receives a part forwards it at once to the provider's resumable
task, whose uuid and next part id live in the UploadTask row. The row is locked while a part
is forwarded, so two requests carrying the same part (a retry, a second tab) are taken one
after the other, and the second is refused naming the part the provider expects next. A page
that lost its file (a reload) is given the same task again when the same file is chosen for the
same target, and goes on at the provider's next part.

The provider checks every part's MD5 (computed here from the bytes received); the whole file
is not hashed, since no node sees every part. After completion a HEAD checks the size and the
provider's MD5 is recorded on the task.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from backoffice.annotations import StaffUser
from backoffice.operations.provider import ProviderNotConfigured
from console.models import Service
from storage import paths, rules
from storage.client import (
    RETRYABLE_ERRORS,
    MultipartCompleted,
    MultipartNotFound,
    PartIdError,
    StorageClient,
    StorageError,
)
from storage.models import UploadTask
from storage.resumable import (
    ALL_PARTS_SENT,
    DEFAULT_MULTI_TYPE,
    PART_SIZE,
    complete_task,
    initiate_task,
    part_count,
    send_part,
)
from storage.services import extensions, mirror
from storage.services.connection import storage_client
from storage.services.details import FileDetails, fetch_details
from storage.services.private import refuse_private
from storage.services.uploads import (
    UploadOptions,
    colour_records,
    goes_resumable,
    guess_content_type,
)
from storage.texts import error_text

OPEN = (UploadTask.State.UPLOADING, UploadTask.State.FAILED)


class PartRefused(Exception):
    """A part that cannot be taken now; nothing stored changed.

    `kind` says why (`out_of_order`, `not_open`, `wrong_size`, `restarted`, `unavailable`,
    `failed`), `expected` is the part id the provider waits for (None when the upload is
    closed), `message` the staff-facing sentence.
    """

    def __init__(self, kind: str, message: str, task: UploadTask, expected: int | None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.task = task
        self.expected = expected


@dataclass
class _Outcome:
    """What forwarding one part led to, applied to the row before the lock is let go."""

    values: dict[str, Any]
    refusal: tuple[str, str] | None = None  # (kind, message)
    finished: FileDetails | None = None
    replaced: bool = False


def part_length(task: UploadTask, part_id: int) -> int:
    """The exact number of bytes part `part_id` of this task must carry."""
    if not task.resumable:
        return task.size
    return max(0, min(PART_SIZE, task.size - part_id * PART_SIZE))


def start_browser_upload(
    service: Service,
    *,
    target_path: str,
    original_name: str,
    size: int,
    content_type: str | None,
    options: UploadOptions,
    user: StaffUser | None = None,
) -> UploadTask:
    """The task the browser sends parts to; an unfinished one for the same file, target and
    options is taken up again (a reloaded page, another tab), at the provider's next part."""
    target = paths.canonical(target_path, allow_root=False)
    refuse_private(target)  # before the intent is saved: nothing of it is ever sent
    with transaction.atomic():
        unfinished = (
            UploadTask.objects.select_for_update()
            .filter(service=service, direct=True, to_provider=False, target_path=target, size=size,
                    original_name=original_name, state__in=OPEN)
            .order_by("-created_at")
            .first()
        )
        if unfinished is not None and unfinished.options == options.as_json():
            UploadTask.objects.filter(pk=unfinished.pk).update(
                state=UploadTask.State.UPLOADING, error="", updated_at=timezone.now()
            )
            unfinished.refresh_from_db()
            return unfinished
        return UploadTask.objects.create(
            service=service,
            source="",
            remove_source=False,
            direct=True,
            state=UploadTask.State.UPLOADING,
            original_name=original_name,
            target_path=target,
            size=size,
            content_type=guess_content_type(original_name, content_type),
            resumable=goes_resumable(size, options),
            options=options.as_json(),
            created_by=user if getattr(user, "is_authenticated", False) else None,
        )


def receive_part(
    pk: int, part_id: int, data: bytes, *, client: StorageClient | None = None
) -> UploadTask:
    """Forward part `part_id` of browser upload `pk` to the provider; returns the task with
    its new next part (-1 and state `done` after the last). Raises PartRefused."""
    with transaction.atomic():
        task = UploadTask.objects.select_for_update().select_related("service").get(
            pk=pk, direct=True, to_provider=False)
        _check_part(task, part_id, data)
        outcome = _forward(task, part_id, data, client)
        values = {**outcome.values, "updated_at": timezone.now()}
        UploadTask.objects.filter(pk=pk).update(**values)
    task.refresh_from_db()
    if outcome.finished is not None:
        _announce(task, outcome.finished, outcome.replaced)
    if outcome.refusal is not None:
        kind, message = outcome.refusal
        expected = task.next_part if task.state == UploadTask.State.UPLOADING else None
        raise PartRefused(kind, message, task, expected)
    return task


def _check_part(task: UploadTask, part_id: int, data: bytes) -> None:
    if task.state != UploadTask.State.UPLOADING:
        raise PartRefused(
            "not_open",
            gettext("This upload is %(state)s; it takes no more parts.")
            % {"state": task.get_state_display()},
            task,
            None,
        )
    if part_id != task.next_part:
        raise PartRefused(
            "out_of_order",
            gettext("Part %(sent)s was sent, but the provider expects part %(expected)s.")
            % {"sent": part_id, "expected": task.next_part},
            task,
            task.next_part,
        )
    if len(data) != part_length(task, part_id):
        raise PartRefused(
            "wrong_size",
            gettext("Part %(part)s must be %(expected)s bytes long, not %(got)s.")
            % {"part": part_id, "expected": part_length(task, part_id), "got": len(data)},
            task,
            task.next_part,
        )


def _forward(
    task: UploadTask, part_id: int, data: bytes, client: StorageClient | None
) -> _Outcome:
    """Call the provider for this part and say what to record; never raises for the
    provider's answers."""
    try:
        storage = client or storage_client(task.service)
        if task.resumable:
            return _forward_part(storage, task, part_id, data)
        return _put_whole(storage, task, data)
    except RETRYABLE_ERRORS as error:
        # Nothing changed on our side: the browser sends the same part again a little later.
        return _Outcome({}, ("unavailable", error_text(error, task.target_path)))
    except (StorageError, ProviderNotConfigured, rules.RuleViolation) as error:
        message = error_text(error, task.target_path)
        return _Outcome({"state": UploadTask.State.FAILED, "error": message},
                        ("failed", message))


def _forward_part(storage: StorageClient, task: UploadTask, part_id: int, data: bytes) -> _Outcome:
    values: dict[str, Any] = {}
    uuid = task.uuid
    if not uuid:
        options = UploadOptions.from_json(task.options)
        uuid, first = initiate_task(
            storage, task.target_path, task.size, task.content_type or DEFAULT_MULTI_TYPE,
            rules.metadata_headers(options.all_metadata()),
        )
        values["uuid"] = uuid
        if first != part_id:  # a fresh task starts at part 0; anything else is the provider's
            values["next_part"] = first
            return _Outcome(values, ("out_of_order", _expects_text(part_id, first)))
    parts = part_count(task.size)
    try:
        next_id = send_part(storage, task.target_path, uuid, part_id, parts, data,
                            hashlib.md5(data).hexdigest())
    except PartIdError as error:
        expected = error.next_part_id
        if expected is None:
            raise
        if expected != ALL_PARTS_SENT and expected <= part_id:
            # The provider lost parts we thought it had: the browser goes back to them.
            values.update(next_part=expected, bytes_sent=expected * PART_SIZE)
            return _Outcome(values, ("out_of_order", _expects_text(part_id, expected)))
        next_id = expected  # it already had this part (an answer to us was lost)
    except MultipartNotFound:
        # Unfinished tasks expire after 24 h: the next part 0 opens a new one.
        values.update(uuid="", next_part=0, bytes_sent=0)
        return _Outcome(values, ("restarted", gettext(
            "The provider dropped this unfinished upload; it starts again from part 0.")))
    if next_id != ALL_PARTS_SENT:
        values.update(next_part=next_id, bytes_sent=min(next_id * PART_SIZE, task.size))
        return _Outcome(values)
    try:
        status = complete_task(storage, task.target_path, uuid, None)
        replaced = status == 204
    except MultipartCompleted:
        replaced = False  # completed before, its answer lost: the file is in place
    details = fetch_details(storage, task.target_path)
    return _finish(task, details, replaced, values, {})


def _put_whole(storage: StorageClient, task: UploadTask, data: bytes) -> _Outcome:
    """Files up to the resumable threshold (and preprocessed images) go in one PUT."""
    options = UploadOptions.from_json(task.options)
    md5 = hashlib.md5(data).hexdigest()
    replaced = storage.exists(task.target_path)
    answer = storage.upload(
        task.target_path,
        io.BytesIO(data),
        content_type=task.content_type or None,
        content_md5=md5,
        metadata=options.metadata,
        ttl_days=options.ttl_days,
        gmkerl=options.gmkerl,
    )
    result: dict[str, Any] = {key: value for key, value in (
        ("width", answer.width), ("height", answer.height),
        ("file_type", answer.file_type), ("frames", answer.frames),
    ) if value is not None}
    if answer.colours is not None:
        result["colours"] = colour_records(answer.colours)
    details = fetch_details(storage, task.target_path)
    return _finish(task, details, replaced, {"md5": md5}, result)


def _finish(
    task: UploadTask, details: FileDetails, replaced: bool, values: dict[str, Any],
    result: dict[str, Any],
) -> _Outcome:
    size = details.info.size
    if not task.options.get("gmkerl") and size is not None and size != task.size:
        message = gettext("The provider holds different bytes: %(detail)s") % {
            "detail": f"{size} bytes stored, {task.size} sent"}
        return _Outcome({**values, "state": UploadTask.State.FAILED, "error": message},
                        ("failed", message))
    now = timezone.now()
    values.update(
        state=UploadTask.State.DONE, next_part=-1 if task.resumable else 0,
        bytes_sent=task.size, error="", result={**result, "replaced": replaced},
        finished_at=now,
    )
    if details.info.md5 and "md5" not in values:
        values["md5"] = details.info.md5.lower()
    return _Outcome(values, finished=details, replaced=replaced)


def _announce(task: UploadTask, details: FileDetails, replaced: bool) -> None:
    """The same records and signals as a worker's upload, once the row says `done`."""
    mirror.record_folder(task.service, paths.parent_of(task.target_path))
    mirror.record_details(task.service, details)
    extensions.send(extensions.file_uploaded, task.service, task.target_path, size=task.size,
                    content_type=details.content_type, replaced=replaced)
    if replaced:
        extensions.send(extensions.file_replaced, task.service, task.target_path)


def _expects_text(sent: int, expected: int) -> str:
    return gettext("Part %(sent)s was sent, but the provider expects part %(expected)s.") % {
        "sent": sent, "expected": expected}
