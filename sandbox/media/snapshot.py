"""POST /<service>/snapshot: the frame at `point` of a video or an M3U8 playlist, saved as an
image in the bucket.

A source whose content starts with `#EXTM3U` is a playlist (whatever its name): the segment
playing at `point` is found from the EXTINF durations and decoded from its start. Any other
file is opened with PyAV (MP4 and whatever else FFmpeg reads) and decoded from the keyframe
before the point. `point` is `HH:MM:SS`, optionally with up to three decimals (`00:00:02.5`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from PIL import Image

from sandbox.core.json_types import JSONObject
from sandbox.media import bucket, fields, frames, images, playlists
from sandbox.media.errors import bad, failed, missing
from sandbox.media.playlists import ByteRange, Playlist, Segment
from sandbox.storage.store import StoredObject

FIELDS = ("source", "save_as", "point", "size", "format")
_POINT = re.compile(r"(\d{2}):([0-5]\d):([0-5]\d)(\.\d{1,3})?")


def handle(service: str, body: JSONObject) -> JSONObject:
    fields.only(body, FIELDS, "snapshot")
    source_path = fields.required_path(body, "source")
    save_as = fields.required_path(body, "save_as")
    point = parse_point(body.get("point"))
    size = images.parse_size(body.get("size"))
    image_format = images.pick_format(body.get("format"), save_as)
    found = bucket.source(service, source_path, "source")
    with bucket.workspace() as work:
        if bucket.looks_like_playlist(found):
            image = frame_of_playlist(service, found, point, work)
        else:
            assert found.local_path is not None
            image = frames.frame_at(found.local_path, point, field="source",
                                    shown_as=source_path)
        target = work / f"snapshot.{image_format.name}"
        images.write(image, size, image_format, target)
        stored = bucket.save(service, save_as, target, image_format.content_type)
    return {"content_type": image_format.content_type, "content_length": stored.size,
            "save_as": stored.path}


def parse_point(value: Any) -> float:
    if value is None:
        raise bad("point", "is required")
    match = _POINT.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise bad("point", f"must be a time HH:MM:SS (such as 00:01:05), got {value!r}")
    hours, minutes, seconds = (int(match.group(group)) for group in (1, 2, 3))
    return hours * 3600 + minutes * 60 + seconds + float(match.group(4) or 0)


def frame_of_playlist(service: str, found: StoredObject, point: float, work: Path) -> Image.Image:
    playlist = playlists.parse(bucket.read_bytes(found, "source"), found.path, "source")
    position, offset = segment_at(playlist, point)
    segment = playlist.segments[position]
    shown = f"segment {position} ({segment.ref.path}) of {found.path}"
    local = segment_file(service, segment, shown, work)
    return frames.frame_at(local, offset, field="source", shown_as=shown, seek=False)


def segment_at(playlist: Playlist, point: float) -> tuple[int, float]:
    """(position of the segment playing at `point`, seconds into it)."""
    if not playlist.segments:
        raise bad("source", f"{playlist.path} has no segments")
    for position, start in enumerate(playlist.starts()):
        duration = playlist.segments[position].duration
        if start <= point < start + duration:
            return position, point - start
    raise bad("point", f"{frames.format_point(point)} is at or after the end of the playlist "
                       f"({playlist.duration:.3f} s)")


def segment_file(service: str, segment: Segment, shown: str, work: Path) -> Path:
    """A local file PyAV can decode: the stored segment itself, or its byte range joined to
    its initialisation section (fMP4) in the workspace."""
    if segment.ref.external:
        raise missing("source", f"{shown} is an external URL; the sandbox reads only segments "
                                f"stored in the bucket")
    if segment.key is not None and segment.key.encrypted:
        raise failed(f"source: {shown} is encrypted (METHOD={segment.key.method}); the sandbox "
                     f"does not decrypt segments")
    stored = bucket.source(service, segment.ref.path, "source", described=shown)
    assert stored.local_path is not None
    if segment.byterange is None and segment.init is None:
        return stored.local_path
    joined = work / "segment.bin"
    with open(joined, "wb") as output:
        if segment.init is not None:
            init = bucket.source(service, segment.init.ref.path, "source",
                                 described=f"the initialisation section of {shown}")
            assert init.local_path is not None
            output.write(read_range(init.local_path, segment.init.byterange, shown))
        output.write(read_range(stored.local_path, segment.byterange, shown))
    return joined


def read_range(path: Path, byterange: ByteRange | None, shown: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            if byterange is None:
                return handle.read()
            handle.seek(byterange.offset)
            data = handle.read(byterange.length)
    except FileNotFoundError:
        raise missing("source", f"{shown} does not exist") from None
    if len(data) < byterange.length:
        raise failed(f"source: the byte range {byterange.text()} of {shown} is beyond the end "
                     f"of the file")
    return data
