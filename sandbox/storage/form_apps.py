"""The FORM API's `apps`: asynchronous processing after an upload (api/form_api.md "异步预处理",
cloud/image.md "上传预处理（异步）").

`apps` in the policy is a JSON array (or a string holding one) of at most 10 tasks, each an
object with a `name`. The sandbox runs `thumb`, the asynchronous image processing:

- `x-gmkerl-thumb` (required): a processing string, a version, or both, drawn as at upload
  (sandbox/storage/thumb.py, the edge's drawing); `x-gmkerl-split` `<w>x<h>` cuts the result
  into blocks of that size, row by row from the top-left;
- `save_as`: where the result goes, with `{filepath}` (the original's path), `{filename}` (its
  name without the suffix), `{suffix}` (without the dot), `{row}`, `{column}` and `{seq}` (a
  block's place, from 0); without `save_as`, `<original path>-<task id>.<ext>` (with a split,
  `-<seq>` before the extension);
- `notify_url`: called when the task is done, else the policy's `notify-url`, else nobody.

Refused at upload, each with its errno.md row: a value that is not a JSON array of objects
40010033 decode tasks error; none or more than 10 tasks 40010003 tasks number error; a task
without `name`, or with a name the page does not document, 40011050 invalid app name; a thumb
task without `x-gmkerl-thumb` 40010001 not enough arguments; a bad processing string 40011035.
The page's other apps (`naga` audio and video, `imgaudit` and `textjudge` content review) are
not emulated: refused as 40000000 with a detail saying so. A key the page does not list, a bad
split or `save_as` (an unknown placeholder, or a split whose blocks would share one path) is
40000000 with a detail.

The answer (and `return-url`, `notify-url`) carries `task_ids`, one per task, in order. The
tasks run outside the request, on the sandbox's tick, each on its own copy of the stored file;
the callback is JSON, signed like the FORM API's notify (form_notify.py), with `task_id`,
`service`, `status_code` (200; 400 a value that does not fit the image, 404 an unknown version,
405 not an image) and `imginfo` (`imginfos` with a split: `path`, `type`, `width`, `height`,
`frames`, and `row`, `column`), or `error`. The outcome of each task is kept in memory for
`GET /storage/tasks` on the control port.
"""

from __future__ import annotations

import io
import json
import logging
import re
import threading
import uuid
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from PIL import Image

from sandbox.core.json_types import JSONObject, JSONValue
from sandbox.storage import disk, errors, form_notify, paths, store, thumb
from sandbox.storage.errors import StorageError

logger = logging.getLogger(__name__)

MAX_APPS = 10
MAX_BLOCKS = 100  # a split into more pieces is a failed task: time, not the page
KEPT_RESULTS = 200
THUMB = "thumb"
NOT_EMULATED = ("naga", "imgaudit", "textjudge")
APP_KEYS = ("name", "x-gmkerl-thumb", "x-gmkerl-split", "save_as", "notify_url")
PLACEHOLDERS = ("filepath", "filename", "suffix", "row", "column", "seq")
DECODE_TASKS = 40010033
TASKS_NUMBER = 40010003
NOT_ENOUGH_ARGUMENTS = 40010001
INVALID_APP_NAME = 40011050
# The callback's status_code of a failed task (cloud/image.md's status table).
STATUS = {errors.NOT_AN_IMAGE: 405, 40300017: 404, errors.INVALID_THUMB_PARAM: 400,
          40300021: 409}
EXTENSIONS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp", "GIF": "gif"}
_SPLIT = re.compile(r"([0-9]{1,5})x([0-9]{1,5})")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True)
class ThumbApp:
    thumb: str
    split: tuple[int, int] | None = None
    save_as: str = ""
    notify_url: str = ""


def read(value: object) -> tuple[ThumbApp, ...]:
    """The policy's `apps`, checked (StorageError with the module's codes)."""
    tasks = value
    if isinstance(value, str):
        try:
            tasks = json.loads(value)
        except ValueError:
            raise StorageError(DECODE_TASKS, "policy: apps must be a JSON array of tasks") \
                from None
    if not isinstance(tasks, list) or not all(isinstance(task, dict) for task in tasks):
        raise StorageError(DECODE_TASKS, "policy: apps must be a JSON array of task objects")
    if not 1 <= len(tasks) <= MAX_APPS:
        raise StorageError(TASKS_NUMBER, f"policy: apps has {len(tasks)} tasks; give 1 to "
                                         f"{MAX_APPS}")
    return tuple(_app(index, task) for index, task in enumerate(tasks))


def _app(index: int, task: dict[str, object]) -> ThumbApp:
    where = f"policy: apps[{index}]"
    name = task.get("name")
    if not isinstance(name, str) or not name:
        raise StorageError(INVALID_APP_NAME, f"{where} has no name (thumb)")
    if name in NOT_EMULATED:
        raise StorageError(errors.BAD_REQUEST, f"{where}: the app {name!r} is documented but "
                                               f"not emulated by the sandbox (only thumb is)")
    if name != THUMB:
        raise StorageError(INVALID_APP_NAME, f"{where}: {name!r} is not an app name; the "
                                             f"image processing app is thumb")
    unknown = sorted(key for key in task if key not in APP_KEYS)
    if unknown:
        raise StorageError(errors.BAD_REQUEST, f"{where}: {unknown[0]!r} is not a key of a "
                                               f"thumb task ({', '.join(APP_KEYS)})")
    texts = {key: _text(where, key, value) for key, value in task.items()}
    processing = texts.get("x-gmkerl-thumb", "").strip()
    if not processing:
        raise StorageError(NOT_ENOUGH_ARGUMENTS, f"{where}: a thumb task needs x-gmkerl-thumb")
    thumb.check(processing)
    split = _split(where, texts.get("x-gmkerl-split"))
    save_as = _save_as(where, texts.get("save_as", ""), split is not None)
    notify = texts.get("notify_url", "").strip()
    if notify and not re.match(r"https?://[^/\s]+", notify):
        raise StorageError(errors.BAD_REQUEST, f"{where}: notify_url must be an http:// or "
                                               f"https:// URL, got {notify!r}")
    return ThumbApp(processing, split, save_as, notify)


def _text(where: str, key: str, value: object) -> str:
    if not isinstance(value, str):
        raise StorageError(DECODE_TASKS, f"{where}: {key} must be a string, got "
                                         f"{json.dumps(value)}")
    return value


def _split(where: str, raw: str | None) -> tuple[int, int] | None:
    if raw is None:
        return None
    found = _SPLIT.fullmatch(raw.strip())
    if found is None or int(found[1]) < 1 or int(found[2]) < 1:
        raise StorageError(errors.BAD_REQUEST, f"{where}: x-gmkerl-split must be <width>x"
                                               f"<height> in pixels, got {raw!r}")
    return int(found[1]), int(found[2])


def _save_as(where: str, raw: str, split: bool) -> str:
    names = _PLACEHOLDER.findall(raw)
    unknown = [name for name in names if name not in PLACEHOLDERS]
    if unknown:
        raise StorageError(errors.BAD_REQUEST, f"{where}: save_as has the unknown placeholder "
                                               f"{{{unknown[0]}}}; known: "
                                               f"{', '.join(PLACEHOLDERS)}")
    if split and raw and "seq" not in names and not {"row", "column"} <= set(names):
        raise StorageError(errors.BAD_REQUEST, f"{where}: with x-gmkerl-split, save_as needs "
                                               f"{{seq}} or {{row}} and {{column}}, else every "
                                               f"block goes to one path")
    return raw


@dataclass
class Task:
    task_id: str
    bucket: str
    original: str
    app: ThumbApp
    source: disk.Received
    operator: str
    password: str
    notify_url: str
    outcome: JSONObject = field(default_factory=dict)


_lock = threading.Lock()
_pending: list[Task] = []
_finished: list[Task] = []


def queue(bucket: str, original: str, apps: tuple[ThumbApp, ...],
          sources: list[disk.Received], operator: str, password: str,
          notify_url: str) -> list[str]:
    """Queue one task per app, each with its own copy of the stored file; their ids."""
    tasks = [Task(uuid.uuid4().hex, bucket, original, app, source, operator, password,
                  app.notify_url or notify_url)
             for app, source in zip(apps, sources, strict=True)]
    with _lock:
        _pending.extend(tasks)
    return [task.task_id for task in tasks]


def run_due(now: float) -> None:
    """Tick handler: run every queued task."""
    with _lock:
        due = list(_pending)
        _pending.clear()
    for task in due:
        task.outcome = run(task)
        with _lock:
            _finished.append(task)
            del _finished[:-KEPT_RESULTS]
        if task.notify_url:
            form_notify.queue_json(task.notify_url, task.outcome, task.operator, task.password)


def run(task: Task) -> JSONObject:
    outcome: JSONObject = {"task_id": task.task_id, "service": task.bucket}
    try:
        saved = _process(task)
    except StorageError as error:
        outcome.update({"status_code": STATUS.get(error.code, error.status),
                        "error": f"{error.msg}: {error.detail}" if error.detail else error.msg})
        return outcome
    except Exception as error:  # a task failing must not stop the tick
        logger.exception("form app task %s failed", task.task_id)
        outcome.update({"status_code": 500, "error": f"{type(error).__name__}: {error}"})
        return outcome
    finally:
        task.source.discard()
    outcome["status_code"] = 200
    if task.app.split is None:
        outcome["imginfo"] = saved[0]
    else:
        outcome["imginfos"] = list(saved)
    return outcome


def _process(task: Task) -> list[JSONValue]:
    body = thumb.processor().render(task.bucket, task.app.thumb, task.source.path)
    with Image.open(io.BytesIO(body)) as image:
        kind = "JPEG" if image.format == "MPO" else (image.format or "PNG")
        frames = getattr(image, "n_frames", 1)
        if task.app.split is None:
            return [_save(task, body, kind, image.size, frames, None)]
        image.load()
        return [_save(task, piece, kind, size, 1, place)
                for piece, size, place in _blocks(image, kind, task.app.split)]


def _blocks(image: Image.Image, kind: str, split: tuple[int, int]
            ) -> list[tuple[bytes, tuple[int, int], tuple[int, int, int]]]:
    """(encoded block, its size, (row, column, seq)) row by row from the top-left."""
    wide, high = split
    rows, columns = -(-image.height // high), -(-image.width // wide)
    if rows * columns > MAX_BLOCKS:
        raise StorageError(errors.INVALID_THUMB_PARAM,
                           f"x-gmkerl-split {wide}x{high} cuts the {image.width}x"
                           f"{image.height} result into {rows * columns} blocks, more than "
                           f"{MAX_BLOCKS}")
    blocks = []
    for row in range(rows):
        for column in range(columns):
            box = (column * wide, row * high, min(image.width, (column + 1) * wide),
                   min(image.height, (row + 1) * high))
            piece = image.crop(box)
            buffer = io.BytesIO()
            piece.save(buffer, format=kind)
            blocks.append((buffer.getvalue(), piece.size, (row, column, row * columns + column)))
    return blocks


def _save(task: Task, data: bytes, kind: str, size: tuple[int, int], frames: int,
          place: tuple[int, int, int] | None) -> JSONValue:
    extension = EXTENSIONS.get(kind, kind.lower())
    path = paths.normalize(save_path(task, extension, place))
    received = disk.receive(io.BytesIO(data), len(data))
    try:
        store.commit_file(task.bucket, path, received, mime_type=Image.MIME.get(kind, ""),
                          meta={}, resumable=False, over_resumable=False)
    except BaseException:
        received.discard()
        raise
    info: JSONObject = {"path": path, "type": extension, "width": size[0], "height": size[1],
                        "frames": frames}
    if place is not None:
        info.update({"row": place[0], "column": place[1]})
    return info


def save_path(task: Task, extension: str, place: tuple[int, int, int] | None) -> str:
    row, column, seq = place or (0, 0, 0)
    if not task.app.save_as:
        block = f"-{seq}" if place is not None else ""
        return f"{task.original}-{task.task_id}{block}.{extension}"
    name = PurePosixPath(task.original).name
    stem, dot, suffix = name.rpartition(".")
    values = {"filepath": task.original, "filename": stem if dot else name,
              "suffix": suffix if dot else "", "row": str(row), "column": str(column),
              "seq": str(seq)}
    return _PLACEHOLDER.sub(lambda found: values[found[1]], task.app.save_as)


def reports() -> list[JSONObject]:
    with _lock:
        done: list[JSONObject] = [{"task_id": task.task_id, "done": True,
                                   "outcome": task.outcome} for task in _finished]
        waiting: list[JSONObject] = [{"task_id": task.task_id, "done": False}
                                     for task in _pending]
    return done + waiting


def forget() -> None:
    with _lock:
        for task in _pending:
            task.source.discard()
        _pending.clear()
        _finished.clear()
