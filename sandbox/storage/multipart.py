"""Resumable upload: the `x-svc-multi-stage` state machine of the spec and DECISIONS.md.

initiate -> upload (parts 0..n-1) -> complete; a stage may be combined with the next ones in
one request (`initiate,upload`, `upload,complete`, `initiate,upload,complete`). Every part but
the last is exactly the part size (1 MiB unless `x-svc-multi-part-size` names another multiple
of 1 MiB up to 50 MiB), at most 10,000 parts. The file appears only at completion (201 new,
204 overwrite). A task not completed within 24 hours on the sandbox clock is removed with its
parts; `DELETE` of the path with `x-svc-multi-uuid` removes it at once (cancel).

In order (the default), parts come strictly one after the other: each accepted part is appended
to the task's one file (`disk.task_file`), which completion installs without copying it. Per
part: one conditional UPDATE of the task's next part id under the task's in-process lock
(`assembly.exclusive`); the task itself is read from the database only the first time this
process sees it (`assembly.known_task`); the whole-file MD5 is computed behind the parts.

In parallel mode (`x-svc-multi-disorder: true` at initiate, as the official SDKs' parallel
uploaders send), parts come in any order and at once, each id once: a part is received into a
file of its own without any lock, then claimed in one short step under the task's lock (a row
of the unique (task, part id) index, so a repeat loses at once, and a rename into the task's
directory). Completion, under the same lock, checks that ids 0..n-1 all arrived and joins
them. `x-svc-multi-length` may then be left out.
"""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from sandbox.core import clock
from sandbox.storage import assembly, disk, errors, metadata, store
from sandbox.storage.disk import Readable, Received
from sandbox.storage.errors import StorageError
from sandbox.storage.models import MultipartPart, MultipartTask
from sandbox.storage.values import is_whole

PART_SIZE = 1_048_576
MAX_PART_SIZE = 50 * PART_SIZE
MAX_PARTS = 10_000
TASK_LIFETIME_S = 24 * 3600
DEFAULT_TYPE = "application/octet-stream"
UUID_HEADER = "x-svc-multi-uuid"
STAGE_FORMS = (
    ("initiate",), ("upload",), ("complete",), ("initiate", "upload"), ("upload", "complete"),
    ("initiate", "upload", "complete"),
)
_UUID = re.compile(r"[0-9a-fA-F-]{36}")


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]


def is_resumable(headers: Mapping[str, str]) -> bool:
    return "x-svc-multi-stage" in headers


def handle(headers: Mapping[str, str], body: Readable, content_length: int, bucket: str,
           path: str) -> Answer:
    """Carry out the stages of one request; refusals raise StorageError (with the task's uuid)."""
    stages = parse_stages(headers["x-svc-multi-stage"])
    if "upload" not in stages and content_length:
        raise StorageError(errors.WRONG_CONTENT_LENGTH,
                           "only the upload stage takes a body; send Content-Length: 0")
    if "initiate" in stages:
        task = initiate(headers, bucket, path)
        if task.disorder:
            return carry_out_unordered(stages, task, headers, body, content_length)
        with assembly.exclusive(task.uuid):
            assembly.remember_task(task)
            return carry_out(stages, task, headers, body, content_length)
    task_uuid = headers.get(UUID_HEADER, "").strip()
    task = find_task(task_uuid, bucket, path, remember=False)  # its mode, read without lock
    if task.disorder:
        return carry_out_unordered(stages, task, headers, body, content_length)
    with assembly.exclusive(task_uuid):  # the task is read, and its next part written, in turn
        task = find_task(task_uuid, bucket, path)
        return carry_out(stages, task, headers, body, content_length)


def carry_out(stages: tuple[str, ...], task: MultipartTask, headers: Mapping[str, str],
              body: Readable, content_length: int) -> Answer:
    """The upload and complete stages of one request in order, holding the task's lock."""
    try:
        if "upload" in stages:
            part_id = parse_part_id(headers.get("x-svc-part-id"),
                                    default=0 if "initiate" in stages else None)
            task = upload_part(task, part_id, body, content_length,
                               headers.get("Content-MD5", "").strip())
        if "complete" in stages:
            created = complete(task, headers.get("x-svc-multi-md5", "").strip())
            return completed_answer(task, created, task.total_length or 0)
    except StorageError as error:
        error.headers.setdefault(UUID_HEADER, task.uuid)
        raise
    return Answer(204, {UUID_HEADER: task.uuid, "x-svc-next-part-id": str(task.next_part_id)})


def carry_out_unordered(stages: tuple[str, ...], task: MultipartTask,
                        headers: Mapping[str, str], body: Readable,
                        content_length: int) -> Answer:
    """The upload and complete stages of one request in parallel mode."""
    try:
        if "upload" in stages:
            part_id = parse_part_id(headers.get("x-svc-part-id"),
                                    default=0 if "initiate" in stages else None)
            upload_unordered(task, part_id, body, content_length,
                             headers.get("Content-MD5", "").strip())
        if "complete" in stages:
            created, length = complete_unordered(task, headers.get("x-svc-multi-md5", "").strip())
            return completed_answer(task, created, length)
    except StorageError as error:
        error.headers.setdefault(UUID_HEADER, task.uuid)
        raise
    answer = {UUID_HEADER: task.uuid}
    if stages == ("initiate",):
        answer["x-svc-next-part-id"] = "0"
    return Answer(204, answer)


def completed_answer(task: MultipartTask, created: bool, length: int) -> Answer:
    return Answer(201 if created else 204, {
        UUID_HEADER: task.uuid, "x-svc-multi-type": task.mime_type,
        "x-svc-multi-length": str(length),
    })


def parse_stages(raw: str) -> tuple[str, ...]:
    stages = tuple(stage.strip().lower() for stage in raw.split(","))
    if stages not in STAGE_FORMS:
        forms = " | ".join(",".join(form) for form in STAGE_FORMS)
        raise StorageError(errors.INVALID_MULTIPART_STAGE,
                           f"x-svc-multi-stage must be one of {forms}, got {raw!r}")
    return stages


def parse_part_id(raw: str | None, default: int | None) -> int:
    if raw is None or not raw.strip():
        if default is None:
            raise StorageError(errors.WRONG_PART_ID, "x-svc-part-id is required")
        return default
    if not is_whole(raw.strip()):
        raise StorageError(errors.WRONG_PART_ID, f"x-svc-part-id {raw!r} is not a whole number")
    return int(raw)


def parse_part_size(raw: str | None) -> int:
    if raw is None:
        return PART_SIZE
    value = raw.strip()
    if not is_whole(value) or not 0 < int(value) <= MAX_PART_SIZE or int(value) % PART_SIZE:
        raise StorageError(errors.INVALID_PART_SIZE,
                           f"x-svc-multi-part-size must be a multiple of {PART_SIZE} bytes up to "
                           f"{MAX_PART_SIZE}, got {raw!r}")
    return int(value)


def parse_disorder(raw: str | None) -> bool:
    value = (raw or "false").strip().lower()
    if value not in ("true", "false"):
        raise StorageError(errors.BAD_REQUEST,
                           f"x-svc-multi-disorder must be true or false, got {raw!r}")
    return value == "true"


def initiate(headers: Mapping[str, str], bucket: str, path: str) -> MultipartTask:
    disorder = parse_disorder(headers.get("x-svc-multi-disorder"))
    part_size = parse_part_size(headers.get("x-svc-multi-part-size"))
    raw_length = headers.get("x-svc-multi-length", "").strip()
    length: int | None = None
    if raw_length or not disorder:
        if not is_whole(raw_length):
            raise StorageError(errors.INVALID_MULTI_LENGTH,
                               f"x-svc-multi-length must be the file size in bytes, got "
                               f"{raw_length!r}")
        length = int(raw_length)
    part_count = 0 if length is None else max(1, math.ceil(length / part_size))
    if part_count > MAX_PARTS:
        raise StorageError(errors.WRONG_MULTIPART_LENGTH,
                           f"x-svc-multi-length: at most {MAX_PARTS} parts of {part_size} bytes "
                           f"({MAX_PARTS * part_size} bytes)")
    meta = metadata.from_headers(headers)
    metadata.validate(meta)
    store.check_bucket(bucket)
    store.check_writable(bucket, path, over_resumable=True)
    now = clock.now()
    task = MultipartTask.objects.create(
        uuid=str(uuid.uuid4()), bucket=bucket, path=path, total_length=length,
        part_count=part_count, part_size=part_size, disorder=disorder,
        mime_type=headers.get("x-svc-multi-type", "").strip() or DEFAULT_TYPE, metadata=meta,
        created_at=now, expires_at=now + TASK_LIFETIME_S,
    )
    disk.make_task_dir(task.uuid)
    return task


def find_task(task_uuid: str, bucket: str, path: str, *, remember: bool = True) -> MultipartTask:
    """The open task `task_uuid` of this path. `remember` (only under the task's lock) keeps an
    in-order task in this process's memory."""
    task_uuid = task_uuid.strip()
    if not _UUID.fullmatch(task_uuid):
        raise StorageError(errors.WRONG_MULTIPART_UUID,
                           "x-svc-multi-uuid must be the 36-character uuid returned by initiate")
    task = assembly.known_task(task_uuid)
    if task is None:
        task = MultipartTask.objects.filter(uuid=task_uuid).first()
        if task is None:
            raise StorageError(errors.MULTIPART_UUID_NOT_FOUND,
                               f"no resumable upload {task_uuid} (cancelled, or expired after "
                               "24 hours)")
        if remember and task.state == MultipartTask.State.OPEN and not task.disorder:
            assembly.remember_task(task)
    if task.bucket != bucket or task.path != path:
        raise StorageError(errors.WRONG_MULTIPART_UUID,
                           f"the upload {task_uuid} belongs to /{task.bucket}{task.path}")
    if task.state == MultipartTask.State.COMPLETED:
        raise StorageError(errors.MULTIPART_COMPLETED, f"the upload {task_uuid} is complete")
    return task


def expected_part_size(task: MultipartTask, part_id: int) -> int:
    if part_id < task.part_count - 1:
        return task.part_size
    return (task.total_length or 0) - (task.part_count - 1) * task.part_size


def check_part(task: MultipartTask, part_id: int, content_length: int) -> None:
    """Refuse a part whose id or size cannot fit the task, before its body is read."""
    limit = task.part_count if task.part_count else MAX_PARTS
    if part_id >= limit:
        raise StorageError(errors.WRONG_PART_ID,
                           f"part id {part_id} is not in 0..{limit - 1}")
    if content_length > task.part_size:
        raise StorageError(errors.OVERSIZE_PART,
                           f"part {part_id} has {content_length} bytes, more than the part size "
                           f"{task.part_size}")
    size = expected_part_size(task, part_id) if task.part_count else None
    if size is not None and content_length != size:
        raise StorageError(errors.WRONG_MULTIPART_SIZE,
                           f"part {part_id} must be {size} bytes, got {content_length}")
    if content_length == 0 and size != 0:
        raise StorageError(errors.WRONG_MULTIPART_SIZE, f"part {part_id} is empty")


def out_of_order(task: MultipartTask, part_id: int) -> StorageError:
    """A part other than the one expected next: 40011061, or 40011062 once every part is in
    (the python SDK then completes); the expected id either way in `x-svc-next-part-id`."""
    expected = {"x-svc-next-part-id": str(task.next_part_id)}
    if task.next_part_id == -1:
        return StorageError(errors.PART_ALREADY_COMPLETE,
                            f"every part is stored (got part {part_id}); complete the upload",
                            expected)
    return StorageError(errors.PART_ID_OUT_OF_ORDER,
                        f"expected part {task.next_part_id}, got {part_id}", expected)


def upload_part(task: MultipartTask, part_id: int, body: Readable, content_length: int,
                content_md5: str) -> MultipartTask:
    if part_id != task.next_part_id:
        if part_id >= task.part_count:
            raise StorageError(errors.WRONG_PART_ID,
                               f"part id {part_id} is not in 0..{task.part_count - 1}")
        raise out_of_order(task, part_id)
    check_part(task, part_id, content_length)
    data = disk.task_file(task.uuid)
    offset = part_id * task.part_size
    chunks = disk.read_part(body, content_length)
    try:
        part_md5 = disk.write_at(data, offset, chunks, digest=bool(content_md5))
    except FileNotFoundError:  # the task expired (or was reset) since it was read
        assembly.drop_task(task.uuid)
        raise gone(task) from None
    if content_md5 and content_md5.lower() != part_md5:
        disk.cut(data, offset)
        raise StorageError(errors.WRONG_CONTENT_MD5,
                           f"Content-MD5 {content_md5} differs from part {part_id}'s {part_md5}")
    following = part_id + 1 if part_id + 1 < task.part_count else -1
    # The lock keeps other parts of this task out; the condition catches expiry and reset.
    claimed = MultipartTask.objects.filter(
        pk=task.pk, state=MultipartTask.State.OPEN, next_part_id=part_id,
    ).update(next_part_id=following)
    if not claimed:
        disk.cut(data, offset)
        assembly.drop_task(task.uuid)
        raise refusal_after_race(task, part_id)
    assembly.follow(task.uuid, offset, chunks)
    task.next_part_id = following
    return task


def gone(task: MultipartTask) -> StorageError:
    return StorageError(errors.MULTIPART_UUID_NOT_FOUND,
                        f"the upload {task.uuid} was cancelled or expired meanwhile")


def refusal_after_race(task: MultipartTask, part_id: int) -> StorageError:
    """Why a part lost its claim: the task expired, completed or moved on meanwhile."""
    current = MultipartTask.objects.filter(pk=task.pk).first()
    if current is None:
        return gone(task)
    if current.state == MultipartTask.State.COMPLETED:
        return StorageError(errors.MULTIPART_COMPLETED, f"the upload {task.uuid} is complete")
    return out_of_order(current, part_id)


def complete(task: MultipartTask, multi_md5: str) -> bool:
    """Install the task's file as the stored file; True when it is new, False when it replaced
    one."""
    if task.next_part_id != -1:
        raise StorageError(errors.MULTIPART_INCOMPLETE,
                           f"{task.next_part_id} of {task.part_count} parts stored",
                           {"x-svc-next-part-id": str(task.next_part_id)})
    length = task.total_length or 0
    try:
        md5 = assembly.whole_md5(task.uuid, length)
    except FileNotFoundError:  # the task expired while we were hashing its file
        raise gone(task) from None
    check_whole_md5(multi_md5, md5)
    try:
        # A second name for the bytes: the commit moves it into place, and a refused commit
        # discards only it, so the parts stay for another attempt at completion.
        received = Received(disk.second_name(disk.task_file(task.uuid)), length, md5)
    except FileNotFoundError:
        raise gone(task) from None
    created = install(task, received)
    assembly.forget(task.uuid)
    return created


def check_whole_md5(multi_md5: str, md5: str) -> None:
    if multi_md5 and multi_md5.lower() != md5:
        raise StorageError(errors.FILE_MD5_MISMATCH,
                           f"x-svc-multi-md5 {multi_md5} differs from the parts' {md5}")


def install(task: MultipartTask, received: Received) -> bool:
    """Mark the task completed and make `received` its file, in one transaction; the parts
    are removed after. True when the file is new."""
    try:
        with transaction.atomic():
            claimed = MultipartTask.objects.filter(
                pk=task.pk, state=MultipartTask.State.OPEN,
            ).update(state=MultipartTask.State.COMPLETED)
            if not claimed:
                assembly.drop_task(task.uuid)
                raise refusal_after_race(task, -1)
            _stored, created = store.commit_file(
                task.bucket, task.path, received, mime_type=task.mime_type,
                meta=dict(task.metadata), resumable=True, over_resumable=True,
            )
    except BaseException:
        received.discard()
        raise
    disk.remove_parts(task.uuid)
    return created


def upload_unordered(task: MultipartTask, part_id: int, body: Readable, content_length: int,
                     content_md5: str) -> None:
    """Receive one part of a parallel upload: the body without any lock, then the claim."""
    check_part(task, part_id, content_length)
    if MultipartPart.objects.filter(task_id=task.pk, part_id=part_id).exists():
        raise duplicate(part_id)  # before the body is read; the claim below is the real check
    received = disk.receive(body, content_length, digest=bool(content_md5))
    try:
        if content_md5 and content_md5.lower() != received.md5:
            raise StorageError(errors.WRONG_CONTENT_MD5,
                               f"Content-MD5 {content_md5} differs from part {part_id}'s "
                               f"{received.md5}")
        with assembly.exclusive(task.uuid):
            claim_part(task, part_id, received)
    except BaseException:
        received.discard()
        raise


def duplicate(part_id: int) -> StorageError:
    return StorageError(errors.DUPLICATE_PART, f"part {part_id} has already arrived")


def claim_part(task: MultipartTask, part_id: int, received: Received) -> None:
    """Record the part and move it into the task's directory (holding the task's lock, which
    completion and cancel hold too)."""
    state = MultipartTask.objects.filter(pk=task.pk).values_list("state", flat=True).first()
    if state is None:
        raise gone(task)
    if state == MultipartTask.State.COMPLETED:
        raise StorageError(errors.MULTIPART_COMPLETED, f"the upload {task.uuid} is complete")
    try:
        with transaction.atomic():
            MultipartPart.objects.create(task_id=task.pk, part_id=part_id, size=received.size)
    except IntegrityError:
        raise duplicate(part_id) from None
    try:
        disk.place_part(received, task.uuid, part_id * task.part_size)
    except FileNotFoundError:
        MultipartPart.objects.filter(task_id=task.pk, part_id=part_id).delete()
        raise gone(task) from None
    assembly.placed(task.uuid, part_id, received.size, task.part_size)


def complete_unordered(task: MultipartTask, multi_md5: str) -> tuple[bool, int]:
    """Install a parallel upload's file, once ids 0..n-1 all arrived (each was placed in the
    file as it came); (created?, length)."""
    with assembly.exclusive(task.uuid):
        sizes = dict(MultipartPart.objects.filter(task_id=task.pk)
                     .values_list("part_id", "size"))
        count = task.part_count or (max(sizes) + 1 if sizes else 0)
        missing = [part_id for part_id in range(count) if part_id not in sizes]
        if not sizes or missing:
            shown = ", ".join(str(part_id) for part_id in missing[:10])
            raise StorageError(errors.MULTIPART_INCOMPLETE,
                               f"missing parts: {shown or 'all'}"
                               + (f" and {len(missing) - 10} more" if len(missing) > 10 else ""))
        short = [part_id for part_id in range(count - 1) if sizes[part_id] != task.part_size]
        if short:
            raise StorageError(errors.WRONG_MULTIPART_SIZE,
                               f"part {short[0]} has {sizes[short[0]]} bytes; every part but the "
                               f"last must have {task.part_size}")
        length = sum(sizes.values())
        if task.total_length is not None and length != task.total_length:
            raise StorageError(errors.UNEXPECTED_MULTIPART_LENGTH,
                               f"the parts hold {length} bytes, x-svc-multi-length said "
                               f"{task.total_length}")
        try:
            md5 = assembly.whole_md5(task.uuid, length)
            check_whole_md5(multi_md5, md5)
            # A second name, as in sequential mode: a refused commit discards only it.
            received = Received(disk.second_name(disk.task_file(task.uuid)), length, md5)
        except FileNotFoundError:
            raise gone(task) from None
        created = install(task, received)
        assembly.forget(task.uuid)
        return created, length


def cancel(raw_uuid: str, bucket: str, path: str) -> None:
    """`DELETE` with `x-svc-multi-uuid`: the open upload and its parts are removed."""
    task_uuid = raw_uuid.strip()
    if not _UUID.fullmatch(task_uuid):
        raise StorageError(errors.WRONG_MULTIPART_UUID,
                           "x-svc-multi-uuid must be the 36-character uuid returned by initiate")
    with assembly.exclusive(task_uuid):
        task = MultipartTask.objects.filter(uuid=task_uuid, bucket=bucket, path=path).first()
        if task is None:
            raise StorageError(errors.CANCEL_UUID_NOT_FOUND,
                               f"no resumable upload {task_uuid} of /{bucket}{path}")
        if task.state == MultipartTask.State.COMPLETED:
            raise StorageError(errors.MULTIPART_COMPLETED, f"the upload {task_uuid} is complete")
        MultipartTask.objects.filter(pk=task.pk, state=MultipartTask.State.OPEN).delete()
        disk.remove_parts(task_uuid)
        assembly.forget(task_uuid)


def expire(now: float) -> None:
    """Remove tasks older than 24 hours, completed or not, and whatever parts they hold."""
    for task_uuid in MultipartTask.objects.filter(expires_at__lte=now).values_list("uuid",
                                                                                  flat=True):
        deleted, _ = MultipartTask.objects.filter(uuid=task_uuid, expires_at__lte=now).delete()
        if deleted:
            disk.remove_parts(task_uuid)
            assembly.forget(task_uuid)
