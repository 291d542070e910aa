"""Resumable (multi-part) upload of large files (spec part A, DECISIONS).

A task is opened (`initiate`), fed 1 MiB parts in order (`upload`, each with its own
Content-MD5) and closed (`complete`, with the whole file's MD5 so the provider checks the
assembly). Progress lives in a small `ResumableState` that is handed to `on_progress` after
every step: the caller persists it, and passing the saved state back resumes at the next part
instead of starting over. Stages are never combined: three plain stages are easier to resume
and to reason about than the combined forms the provider also accepts.

With `parts_in_flight` above 1 the task is opened in the provider's parallel mode
(`x-svc-multi-disorder: true`), with parts of `PARALLEL_PART_SIZE` (`x-svc-multi-part-size`),
and that many parts are on the wire at once. The saved
`next_part_id` is then the lowest part not yet confirmed (every part below it arrived), so a
crash loses at most the parts in flight: on resume they are sent again, and a part the provider
already holds (40001031, it arrived before the crash) counts as sent.

In parallel mode the parts go without their own Content-MD5: the whole file's MD5, checked by
the provider at completion, covers every byte, and hashing each byte a second time (on our side
and on the provider's) was what held parallel uploads below a plain PUT (bench/storage_upload.py).
A mismatch at completion (a byte changed on the way, or the file changed since the upload
started) cancels the task and sends the file once more with a new one. Sequential mode keeps the
per-part MD5: its parts are confirmed one by one, and a part refused alone is sent again alone.

The file is read once: a worker thread reads and hashes the next part (its own MD5 and the
running whole-file MD5) while the provider takes the current one, so the client's disk and
hashing time hide behind the network instead of adding to it (`storage.parts`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import ExitStack, suppress
from dataclasses import dataclass

from storage import rules
from storage.client import (
    DuplicatePart,
    FileMD5Mismatch,
    MultipartNotFound,
    NotifyingBody,
    PartIdError,
    Source,
    StorageClient,
    StorageError,
    StorageProtocolError,
    file_size,
    open_source,
)
from storage.parts import PART_SIZE, Part, PartReader, SourceChanged, part_count

__all__ = [
    "ALL_PARTS_SENT", "MAX_LENGTH", "MAX_PARTS", "PART_SIZE", "ResumableState", "SourceChanged",
    "cancel_task", "complete_task", "initiate_task", "part_count", "resumable_upload", "send_part",
    "send_unordered_part",
]

MAX_PARTS = 10_000
MAX_LENGTH = PART_SIZE * MAX_PARTS
# Parts of a task in parallel mode: fewer, larger requests. Each part costs the provider a
# request and a record whatever its size; with 1 MiB parts that cost, not the bytes, set the
# pace (bench/storage_upload.py). 4 MiB, as the browser's direct uploads send.
PARALLEL_PART_SIZE = 4 * PART_SIZE
DEFAULT_MULTI_TYPE = "application/octet-stream"
UUID_LENGTH = 36
ALL_PARTS_SENT = -1
# Consecutive 40011061 answers we follow before giving up: one is a lost answer to a part
# that did arrive; a run of them means we and the provider disagree about the file.
MAX_RESYNCS = 3


@dataclass
class ResumableState:
    """Where a resumable upload stands; save it after every `on_progress` call.

    `uuid` is None until a task exists; `next_part_id` is the part the provider expects next
    (-1 once every part is sent, leaving only completion) or, for a task in parallel mode
    (`parallel`), the lowest part not yet confirmed; `bytes_sent` is the bytes of the file the
    provider holds, for progress bars.
    """

    uuid: str | None = None
    next_part_id: int = 0
    bytes_sent: int = 0
    parallel: bool = False
    part_size: int = PART_SIZE  # the task's, fixed when it is opened

    @property
    def all_parts_sent(self) -> bool:
        return self.next_part_id == ALL_PARTS_SENT


ProgressCallback = Callable[[ResumableState], None]


def resumable_upload(
    client: StorageClient,
    path: str,
    source: Source,
    *,
    state: ResumableState | None = None,
    on_progress: ProgressCallback | None = None,
    content_type: str | None = None,
    metadata: Mapping[str, object] | None = None,
    known_md5: str | None = None,
    parts_in_flight: int = 1,
) -> int:
    """Upload `source` to `path` in parts; returns 201 (new file) or 204 (overwrite).

    `parts_in_flight` above 1 opens a new task in parallel mode and keeps that many parts on
    the wire, in parts of `PARALLEL_PART_SIZE`; a saved task goes on in the mode and with the
    part size it was opened with (`state.parallel`, `state.part_size`).

    `state` is updated in place and given to `on_progress` after the task is opened, after
    every part, and when an expired task (40001035, tasks live 24 hours) is dropped: it then
    reads uuid None / part 0 and the upload restarts once with a new task. A 40011061 answer
    moves to the part the provider names. The file must be the same one on resume: its whole
    MD5 is checked by the provider at completion (FileMD5Mismatch otherwise; a task in parallel
    mode is then cancelled and the file sent once more). `known_md5`, the file's MD5 when the
    caller already has it, is sent as is instead of hashing the file again.
    """
    state = state if state is not None else ResumableState()
    notify: ProgressCallback = on_progress or (lambda _state: None)
    path = rules.normalise_path(path)
    meta_headers = rules.metadata_headers(metadata or {})
    if content_type is not None:
        rules.require(rules.check_meta_value("x-svc-multi-type", content_type))
    if known_md5 is not None:
        rules.require(rules.check_content_md5(known_md5))
    if parts_in_flight < 1:
        raise ValueError(f"parts_in_flight must be at least 1, got {parts_in_flight}")
    if state.uuid is None:
        state.parallel = parts_in_flight > 1
        state.part_size = PARALLEL_PART_SIZE if state.parallel else PART_SIZE
    with ExitStack() as stack:
        file = open_source(source, stack)
        length = file_size(file)
        _check_length(length, state.part_size)
        expired_again = sent_again = False
        while True:
            # A new reader for each try: a file sent again is hashed again, as it is now.
            with PartReader(file, length, part_size=state.part_size, known_md5=known_md5,
                            part_md5=not state.parallel) as reader:
                upload = _Upload(client, path, reader, state, notify)
                try:
                    if state.uuid is None:
                        upload.initiate(content_type or DEFAULT_MULTI_TYPE, meta_headers)
                    if state.parallel:
                        upload.send_parts_at_once(parts_in_flight)
                    else:
                        upload.send_parts()
                    return upload.complete(reader.whole_md5())
                except MultipartNotFound:
                    if expired_again:
                        raise
                    expired_again = True
                    upload.forget_task()
                except FileMD5Mismatch:
                    if not state.parallel or sent_again:
                        raise
                    sent_again = True
                    with suppress(StorageError):  # best effort: it expires in 24 hours anyway
                        cancel_task(client, path, upload.uuid())
                    upload.forget_task()


def _check_length(length: int, part_size: int = PART_SIZE) -> None:
    if length == 0:
        raise ValueError("an empty file cannot be uploaded in parts; use a plain upload")
    if length > part_size * MAX_PARTS:
        raise ValueError(
            f"file of {length} bytes needs more than {MAX_PARTS} parts of {part_size} bytes"
        )


class _Upload:
    """The three stages for one file, keeping `state` in step with the provider."""

    def __init__(
        self,
        client: StorageClient,
        path: str,
        reader: PartReader,
        state: ResumableState,
        notify: ProgressCallback,
    ) -> None:
        self.client = client
        self.path = path
        self.reader = reader
        self.length = reader.length
        self.parts = reader.count
        self.state = state
        self.notify = notify
        if state.uuid is not None:
            self._move_to(state.next_part_id)  # bytes_sent follows from the saved part id

    def initiate(self, multi_type: str, meta_headers: Mapping[str, str]) -> None:
        uuid, next_id = initiate_task(self.client, self.path, self.length, multi_type,
                                      meta_headers, parallel=self.state.parallel,
                                      part_size=self.state.part_size)
        self.state.uuid = uuid
        self._move_to(next_id)
        self.notify(self.state)

    def send_parts(self) -> None:
        resyncs = 0
        while not self.state.all_parts_sent:
            part_id = self.state.next_part_id
            try:
                next_id = self._send_part(part_id)
            except PartIdError as error:
                expected = error.next_part_id
                if expected is None or expected == part_id or resyncs >= MAX_RESYNCS:
                    raise
                resyncs += 1
                self._move_to(expected)
                self.notify(self.state)
                continue
            resyncs = 0
            self._move_to(next_id)
            self.notify(self.state)

    def send_parts_at_once(self, in_flight: int) -> None:
        """Keep `in_flight` parts on the wire (parallel mode), reading them in order; after
        each confirmed part the saved state moves to the lowest part not yet confirmed. On a
        refusal no new part is sent, the ones in flight are waited for (their outcome saved),
        and the first refusal is raised."""
        if self.state.all_parts_sent:
            return
        confirmed: set[int] = set()
        following = self.state.next_part_id
        pending: dict[Future[None], int] = {}
        failure: BaseException | None = None
        with ThreadPoolExecutor(in_flight, thread_name_prefix="storage-send") as senders:
            while pending or (failure is None and following < self.parts):
                while failure is None and len(pending) < in_flight and following < self.parts:
                    part = self.reader.take(following)
                    self.reader.read_ahead(following + 1)
                    pending[senders.submit(self._send_unordered, part)] = following
                    following += 1
                done, _running = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    part_id = pending.pop(future)
                    error = future.exception()
                    if error is None or isinstance(error, DuplicatePart):
                        confirmed.add(part_id)  # a duplicate arrived before a crash
                    elif failure is None:
                        failure = error
                self._advance(confirmed)
        if failure is not None:
            raise failure

    def _send_unordered(self, part: Part) -> None:
        send_unordered_part(self.client, self.path, self.uuid(), part.part_id, part.data,
                            part.md5)

    def _advance(self, confirmed: set[int]) -> None:
        """Move the saved part to the lowest one not confirmed (-1 once all are)."""
        lowest = self.state.next_part_id
        if lowest not in confirmed:
            return
        while lowest in confirmed:
            confirmed.discard(lowest)
            lowest += 1
        self._move_to(ALL_PARTS_SENT if lowest >= self.parts else lowest)
        self.notify(self.state)

    def complete(self, whole_md5: str) -> int:
        return complete_task(self.client, self.path, self.uuid(), whole_md5)

    def forget_task(self) -> None:
        """The provider dropped the task: start again from part 0 with a new one."""
        self.state.uuid = None
        self._move_to(0)
        self.notify(self.state)

    def _send_part(self, part_id: int) -> int:
        """Send one part; returns the next part id the provider announces."""
        if not 0 <= part_id < self.parts:
            raise StorageProtocolError(
                f"provider expects part {part_id} of a file of {self.parts} parts; "
                "was the file changed since the upload started?"
            )
        part: Part = self.reader.take(part_id)
        body = NotifyingBody(part.data, on_sent=lambda: self.reader.read_ahead(part_id + 1))
        return send_part(self.client, self.path, self.uuid(), part_id, self.parts, body,
                         part.md5)

    def _move_to(self, part_id: int) -> None:
        self.state.next_part_id = part_id
        if part_id == ALL_PARTS_SENT:
            self.state.bytes_sent = self.length
        else:
            self.state.bytes_sent = min(max(part_id, 0) * self.state.part_size, self.length)

    def uuid(self) -> str:
        if self.state.uuid is None:  # guarded by the flow; kept for a clear error if broken
            raise RuntimeError("no resumable task is open")
        return self.state.uuid


# --- the three stages, one request each (also used part by part by the browser upload) -------


def initiate_task(
    client: StorageClient, path: str, length: int, multi_type: str,
    meta_headers: Mapping[str, str], *, parallel: bool = False, part_size: int = PART_SIZE,
) -> tuple[str, int]:
    """Open a task for a file of `length` bytes; returns (uuid, the first part id expected).
    `parallel` opens it in parallel mode: parts in any order and at once, of `part_size`
    (a whole number of MiB; sequential mode's parts are 1 MiB)."""
    _check_length(length, part_size)
    headers = {
        "x-svc-multi-stage": "initiate",
        "x-svc-multi-length": str(length),
        "x-svc-multi-type": multi_type,
        **meta_headers,
    }
    if parallel:
        headers["x-svc-multi-disorder"] = "true"
        if part_size != PART_SIZE:
            headers["x-svc-multi-part-size"] = str(part_size)
    elif part_size != PART_SIZE:
        raise ValueError("sequential mode's parts are 1 MiB")
    # Not idempotent: a repeat would open a second task.
    response = client.send("PUT", path, headers=headers, body=b"", idempotent=False)
    uuid = response.headers.get("x-svc-multi-uuid", "")
    if len(uuid) != UUID_LENGTH:
        raise StorageProtocolError(f"initiate answered an invalid task uuid {uuid!r}")
    return uuid, _next_part_header(response.headers.get("x-svc-next-part-id"), default=0)


def send_part(
    client: StorageClient, path: str, uuid: str, part_id: int, parts: int,
    body: bytes | NotifyingBody, md5: str | None,
) -> int:
    """Send part `part_id` of `parts`; returns the next part id (ALL_PARTS_SENT after the last).

    Repeating a part is safe: an in-order task takes parts strictly in order and answers a
    duplicate with 40011061 (PartIdError) naming the id it wants.
    """
    headers = {
        "x-svc-multi-stage": "upload",
        "x-svc-multi-uuid": uuid,
        "x-svc-part-id": str(part_id),
    }
    response = client.send(
        "PUT", path, headers=headers, body=body, content_md5=md5, idempotent=True
    )
    is_last = part_id == parts - 1
    default = ALL_PARTS_SENT if is_last else part_id + 1
    next_id = _next_part_header(response.headers.get("x-svc-next-part-id"), default=default)
    if next_id != default:
        raise StorageProtocolError(
            f"after part {part_id} of {parts} the provider expects part {next_id}"
        )
    return next_id


def send_unordered_part(
    client: StorageClient, path: str, uuid: str, part_id: int, body: bytes, md5: str | None
) -> None:
    """Send part `part_id` of a task in parallel mode (with its Content-MD5 when `md5` is
    given). Repeating it is safe: the provider takes each id once and answers a repeat with
    40001031 (DuplicatePart)."""
    headers = {
        "x-svc-multi-stage": "upload",
        "x-svc-multi-uuid": uuid,
        "x-svc-part-id": str(part_id),
    }
    client.send("PUT", path, headers=headers, body=body, content_md5=md5,
                idempotent=True).close()


def complete_task(client: StorageClient, path: str, uuid: str, whole_md5: str | None) -> int:
    """Close the task; returns 201 (new file) or 204 (overwrite). Without `whole_md5` the
    provider assembles the parts it checked one by one, unchecked as a whole."""
    headers = {"x-svc-multi-stage": "complete", "x-svc-multi-uuid": uuid}
    if whole_md5:
        headers["x-svc-multi-md5"] = whole_md5
    # Not repeated: after a lost answer a repeat gets MultipartCompleted, which tells the
    # caller the file is in place without saying whether it was new.
    response = client.send("PUT", path, headers=headers, body=b"", idempotent=False)
    return response.status_code


def cancel_task(client: StorageClient, path: str, uuid: str) -> None:
    """Drop an unfinished task and the parts it holds (a DELETE of the path naming the task:
    the file at the path, if any, stays)."""
    client.send("DELETE", path, headers={"x-svc-multi-uuid": uuid}, idempotent=True).close()


def _next_part_header(value: str | None, *, default: int) -> int:
    if value is None or value.strip() == "":
        return default
    try:
        return int(value)
    except ValueError as exc:
        raise StorageProtocolError(f"x-svc-next-part-id is not a number: {value!r}") from exc
