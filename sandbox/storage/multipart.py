"""Resumable upload: the `x-svc-multi-stage` state machine of the spec and DECISIONS.md.

initiate -> upload (parts 0..n-1, strictly in order) -> complete; a stage may be combined with
the next ones in one request (`initiate,upload`, `upload,complete`, `initiate,upload,complete`).
Every part but the last is exactly 1 MiB, at most 10,000 parts. Each accepted part is appended
to the task's one file (`disk.task_file`), which completion installs as the stored file without
copying it; the file appears only then (201 new, 204 overwrite). A task not completed within
24 hours on the sandbox clock is removed with its parts.

Per part: one conditional UPDATE of the task's next part id under the task's in-process lock
(`assembly.exclusive`); the task itself is read from the database only the first time this
process sees it (`assembly.known_task`); the whole-file MD5 is computed behind the parts.
"""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction

from sandbox.core import clock
from sandbox.storage import assembly, disk, errors, metadata, store
from sandbox.storage.disk import Readable, Received
from sandbox.storage.errors import StorageError
from sandbox.storage.models import MultipartTask
from sandbox.storage.values import is_whole

PART_SIZE = 1_048_576
MAX_PARTS = 10_000
TASK_LIFETIME_S = 24 * 3600
DEFAULT_TYPE = "application/octet-stream"
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
        raise StorageError(errors.BAD_CONTENT_LENGTH,
                           "only the upload stage takes a body; send Content-Length: 0")
    if "initiate" in stages:
        task = initiate(headers, bucket, path)
        with assembly.exclusive(task.uuid):
            assembly.remember_task(task)
            return carry_out(stages, task, headers, body, content_length)
    task_uuid = headers.get("x-svc-multi-uuid", "").strip()
    with assembly.exclusive(task_uuid):  # the task is read, and its next part written, in turn
        task = find_task(task_uuid, bucket, path)
        return carry_out(stages, task, headers, body, content_length)


def carry_out(stages: tuple[str, ...], task: MultipartTask, headers: Mapping[str, str],
              body: Readable, content_length: int) -> Answer:
    """The upload and complete stages of one request, holding the task's lock."""
    try:
        if "upload" in stages:
            part_id = parse_part_id(headers.get("x-svc-part-id"),
                                    default=0 if "initiate" in stages else None)
            task = upload_part(task, part_id, body, content_length,
                               headers.get("Content-MD5", "").strip())
        if "complete" in stages:
            created = complete(task, headers.get("x-svc-multi-md5", "").strip())
            return Answer(201 if created else 204, {
                "x-svc-multi-uuid": task.uuid, "x-svc-multi-type": task.mime_type,
                "x-svc-multi-length": str(task.total_length),
            })
    except StorageError as error:
        error.headers.setdefault("x-svc-multi-uuid", task.uuid)
        raise
    return Answer(204, {"x-svc-multi-uuid": task.uuid,
                        "x-svc-next-part-id": str(task.next_part_id)})


def parse_stages(raw: str) -> tuple[str, ...]:
    stages = tuple(stage.strip().lower() for stage in raw.split(","))
    if stages not in STAGE_FORMS:
        forms = " | ".join(",".join(form) for form in STAGE_FORMS)
        raise StorageError(errors.BAD_HEADER, f"x-svc-multi-stage must be one of {forms}, "
                                              f"got {raw!r}")
    return stages


def parse_part_id(raw: str | None, default: int | None) -> int:
    if raw is None or not raw.strip():
        if default is None:
            raise StorageError(errors.WRONG_PART_ID, "wrong multipart part id: x-svc-part-id "
                                                     "is required")
        return default
    if not is_whole(raw.strip()):
        raise StorageError(errors.WRONG_PART_ID,
                           f"wrong multipart part id: {raw!r} is not a whole number")
    return int(raw)


def initiate(headers: Mapping[str, str], bucket: str, path: str) -> MultipartTask:
    raw_length = headers.get("x-svc-multi-length", "").strip()
    if not is_whole(raw_length):
        raise StorageError(errors.BAD_HEADER, "x-svc-multi-length must be the file size in "
                                              f"bytes, got {raw_length!r}")
    length = int(raw_length)
    part_count = max(1, math.ceil(length / PART_SIZE))
    if part_count > MAX_PARTS:
        raise StorageError(errors.BAD_HEADER, f"x-svc-multi-length: at most {MAX_PARTS} parts "
                                              f"of {PART_SIZE} bytes ({MAX_PARTS * PART_SIZE} "
                                              "bytes)")
    part_size = headers.get("x-svc-multi-part-size")
    if part_size is not None and part_size.strip() != str(PART_SIZE):
        raise StorageError(errors.PART_SIZE_ERROR,
                           f"x-svc-multi-part-size must be {PART_SIZE}, got {part_size!r}")
    meta = metadata.from_headers(headers)
    metadata.validate(meta)
    store.check_bucket(bucket)
    store.check_writable(bucket, path, over_resumable=True)
    now = clock.now()
    task = MultipartTask.objects.create(
        uuid=str(uuid.uuid4()), bucket=bucket, path=path, total_length=length,
        part_count=part_count, mime_type=headers.get("x-svc-multi-type", "").strip()
        or DEFAULT_TYPE, metadata=meta, created_at=now, expires_at=now + TASK_LIFETIME_S,
    )
    disk.make_task_dir(task.uuid)
    return task


def find_task(task_uuid: str, bucket: str, path: str) -> MultipartTask:
    task_uuid = task_uuid.strip()
    if not _UUID.fullmatch(task_uuid):
        raise StorageError(errors.WRONG_MULTIPART_UUID,
                           "wrong multipart uuid: x-svc-multi-uuid must be the 36-character "
                           "uuid returned by initiate")
    task = assembly.known_task(task_uuid)
    if task is None:
        task = MultipartTask.objects.filter(uuid=task_uuid).first()
        if task is None:
            raise StorageError(errors.MULTIPART_UUID_NOT_FOUND, "multipart uuid not found")
        if task.state == MultipartTask.State.OPEN:
            assembly.remember_task(task)
    if task.bucket != bucket or task.path != path:
        raise StorageError(errors.WRONG_MULTIPART_UUID,
                           f"wrong multipart uuid: it belongs to /{task.bucket}{task.path}")
    if task.state == MultipartTask.State.COMPLETED:
        raise StorageError(errors.MULTIPART_COMPLETED, "completed multipart")
    return task


def expected_part_size(task: MultipartTask, part_id: int) -> int:
    if part_id < task.part_count - 1:
        return PART_SIZE
    return task.total_length - (task.part_count - 1) * PART_SIZE


def out_of_order(task: MultipartTask, part_id: int) -> StorageError:
    return StorageError(errors.PART_ID_OUT_OF_ORDER,
                        f"part id error: expected part {task.next_part_id}, got {part_id}",
                        {"x-svc-next-part-id": str(task.next_part_id)})


def upload_part(task: MultipartTask, part_id: int, body: Readable, content_length: int,
                content_md5: str) -> MultipartTask:
    if part_id >= task.part_count:
        raise StorageError(errors.WRONG_PART_ID,
                           f"wrong multipart part id: {part_id} is not in 0..{task.part_count - 1}")
    if part_id != task.next_part_id:
        raise out_of_order(task, part_id)
    size = expected_part_size(task, part_id)
    if content_length != size:
        raise StorageError(errors.PART_SIZE_ERROR,
                           f"part size error: part {part_id} must be {size} bytes, "
                           f"got {content_length}")
    data = disk.task_file(task.uuid)
    offset = part_id * PART_SIZE
    chunks = disk.read_part(body, content_length)
    try:
        part_md5 = disk.write_at(data, offset, chunks, digest=bool(content_md5))
    except FileNotFoundError:  # the task expired (or was reset) since it was read
        assembly.drop_task(task.uuid)
        raise StorageError(errors.MULTIPART_UUID_NOT_FOUND, "multipart uuid not found") from None
    if content_md5 and content_md5.lower() != part_md5:
        disk.cut(data, offset)
        raise StorageError(errors.WRONG_CONTENT_MD5, "wrong content-md5 of the part")
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


def refusal_after_race(task: MultipartTask, part_id: int) -> StorageError:
    """Why a part lost its claim: the task expired, completed or moved on meanwhile."""
    current = MultipartTask.objects.filter(pk=task.pk).first()
    if current is None:
        return StorageError(errors.MULTIPART_UUID_NOT_FOUND, "multipart uuid not found")
    if current.state == MultipartTask.State.COMPLETED:
        return StorageError(errors.MULTIPART_COMPLETED, "completed multipart")
    return out_of_order(current, part_id)


def complete(task: MultipartTask, multi_md5: str) -> bool:
    """Install the task's file as the stored file; True when it is new, False when it replaced
    one."""
    if task.next_part_id != -1:
        raise StorageError(errors.MULTIPART_INCOMPLETE,
                           f"incomplete multipart parts: {task.next_part_id} of "
                           f"{task.part_count} parts stored",
                           {"x-svc-next-part-id": str(task.next_part_id)})
    try:
        md5 = assembly.whole_md5(task.uuid, task.total_length)
    except FileNotFoundError:  # the task expired while we were hashing its file
        raise StorageError(errors.MULTIPART_UUID_NOT_FOUND, "multipart uuid not found") from None
    if multi_md5 and multi_md5.lower() != md5:
        raise StorageError(errors.FILE_MD5_MISMATCH, "file md5 not match")
    try:
        # A second name for the bytes: the commit moves it into place, and a refused commit
        # discards only it, so the parts stay for another attempt at completion.
        received = Received(disk.second_name(disk.task_file(task.uuid)), task.total_length, md5)
    except FileNotFoundError:
        raise StorageError(errors.MULTIPART_UUID_NOT_FOUND, "multipart uuid not found") from None
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
    assembly.forget(task.uuid)
    return created


def expire(now: float) -> None:
    """Remove tasks older than 24 hours, completed or not, and whatever parts they hold."""
    for task_uuid in MultipartTask.objects.filter(expires_at__lte=now).values_list("uuid",
                                                                                  flat=True):
        deleted, _ = MultipartTask.objects.filter(uuid=task_uuid, expires_at__lte=now).delete()
        if deleted:
            disk.remove_parts(task_uuid)
            assembly.forget(task_uuid)
