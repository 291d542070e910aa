"""Decoding one video frame with PyAV: the picture shown at a time point of a file.

"The frame at t" is the last frame whose presentation time is at or before t, counted from the
start of the video: the stream's start time for a whole file, the first frame for a segment
(MPEG-TS and fMP4 segments carry the timestamps of the whole recording, so a segment's own time
starts at its first frame, not at 0).
"""

from __future__ import annotations

from pathlib import Path

import av
from PIL import Image

from sandbox.media.errors import bad, failed, missing

TOLERANCE_S = 1e-6


def open_container(path: Path, field: str, shown_as: str) -> av.container.InputContainer:
    try:
        return av.open(str(path), mode="r")
    except FileNotFoundError:
        raise missing(field, f"{shown_as} does not exist") from None
    except av.FFmpegError as error:
        raise failed(f"{field}: {shown_as} could not be read as audio or video "
                     f"({error.strerror or error})") from None


def video_duration(container: av.container.InputContainer) -> float | None:
    stream = container.streams.video[0]
    if stream.duration is not None and stream.time_base is not None:
        return float(stream.duration * stream.time_base)
    if container.duration is not None:
        return container.duration / av.time_base
    return None


def frame_at(path: Path, offset: float, *, field: str, shown_as: str,
             seek: bool = True) -> Image.Image:
    """The picture at `offset` seconds into the video of `path`.

    `seek` jumps to the keyframe before the point first; without it (short segments) decoding
    starts at the beginning. A point after the end of the video is a 400 on `point`.
    """
    with open_container(path, field, shown_as) as container:
        if not container.streams.video:
            raise bad(field, f"{shown_as} has no video stream to take a snapshot of")
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        duration = video_duration(container) if seek else None
        if duration is not None and offset >= duration - TOLERANCE_S:
            raise bad("point", f"{format_point(offset)} is at or after the end of the video "
                               f"({duration:.3f} s)")
        try:
            return decode_until(container, stream, offset, seek)
        except av.FFmpegError as error:
            raise failed(f"{field}: {shown_as} could not be decoded "
                         f"({error.strerror or error})") from None


def decode_until(container: av.container.InputContainer, stream: av.VideoStream,
                 offset: float, seek: bool) -> Image.Image:
    # A whole file counts from its stream's start time; a segment from its first frame, since
    # a segment's container may not state where its timestamps begin.
    origin: float | None = None
    if seek:
        time_base = stream.time_base
        assert time_base is not None
        origin = float(stream.start_time * time_base) if stream.start_time is not None else 0.0
        container.seek(int((origin + offset) / time_base), stream=stream, backward=True)
    best: av.VideoFrame | None = None
    for frame in container.decode(stream):
        if frame.time is None:
            continue
        if origin is None:
            origin = frame.time
        if frame.time <= origin + offset + TOLERANCE_S:
            best = frame
        else:
            best = best or frame  # a first frame later than its stream's start time
            break
    if best is None or origin is None:
        raise bad("point", f"{format_point(offset)}: no video frame found at this point")
    image: Image.Image = best.to_image()
    return image


def format_point(seconds: float) -> str:
    whole = int(seconds)
    fraction = seconds - whole
    text = f"{whole // 3600:02d}:{whole % 3600 // 60:02d}:{whole % 60:02d}"
    return text + (f"{fraction:.3f}"[1:] if fraction >= 0.0005 else "")
