"""The provider's answers, as stored on a job, turned into tables people can read.

Jobs keep the parsed answer as JSON (`ProcessingJob.answer`), so these functions work from
that JSON and an old job reads the same as a new one. Values the answer lacks show as empty.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from media.texts import parameter_label
from media.timecode import clock, point_of
from providerkit.json_types import JSONObject
from storage import services as storage


@dataclass(frozen=True)
class Row:
    label: str
    value: str
    key: str  # the provider's field name, for tests and for people who know the API


@dataclass(frozen=True)
class StreamTable:
    title: str
    kind: str
    rows: list[Row]


@dataclass(frozen=True)
class Segment:
    number: int
    start: float
    length: float | None

    @property
    def start_clock(self) -> str:
        return clock(self.start)

    @property
    def start_point(self) -> str:
        """The whole second the segment starts in, as the Snapshot page takes it."""
        return point_of(self.start)

    @property
    def end_clock(self) -> str:
        return clock(None if self.length is None else self.start + self.length)


def _number(value: object, decimals: int = 0) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return ""
    # number_format cuts extra decimals off; round first so 143.257 reads 143.3.
    return number_format(round(value, decimals), decimals, force_grouping=True)


def seconds_text(value: object) -> str:
    """`6.000 s (00:00:06.000)`."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return ""
    return _("%(seconds)s s (%(clock)s)") % {"seconds": _number(value, 3), "clock": clock(value)}


def bitrate_text(value: object) -> str:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return ""
    return _("%(kbps)s kb/s") % {"kbps": _number(value / 1000, 1)}


def _text(value: object) -> str:
    return "" if value is None else str(value)


def format_rows(answer: dict[str, Any]) -> list[Row]:
    """The container: format name and full name, duration, bitrate, file size."""
    media_format = answer.get("format") or {}
    size = media_format.get("filesize")
    size_text = ""
    if isinstance(size, int | float) and not isinstance(size, bool):
        size_text = _("%(human)s (%(bytes)s)") % {
            "human": storage.size_text(size), "bytes": storage.bytes_text(size)}
    return [
        Row(_("Container"), _text(media_format.get("format")), "format"),
        Row(_("Full name"), _text(media_format.get("fullname")), "fullname"),
        Row(_("Duration"), seconds_text(media_format.get("duration")), "duration"),
        Row(_("Bitrate"), bitrate_text(media_format.get("bitrate")), "bitrate"),
        Row(_("File size"), size_text, "filesize"),
    ]


def stream_tables(answer: dict[str, Any]) -> list[StreamTable]:
    """One table per stream, with the fields of its type (video or audio) and the common ones."""
    tables = []
    for stream in answer.get("streams") or []:
        kind = _text(stream.get("type"))
        rows = [
            Row(_("Type"), kind, "type"),
            Row(_("Codec"), _text(stream.get("codec")), "codec"),
            Row(_("Codec description"), _text(stream.get("codec_desc")), "codec_desc"),
            Row(_("Duration"), seconds_text(stream.get("duration")), "duration"),
            Row(_("Bitrate"), bitrate_text(stream.get("bitrate")), "bitrate"),
        ]
        if stream.get("video_width") is not None or stream.get("video_height") is not None:
            rows.append(Row(_("Picture size"), _("%(width)s × %(height)s pixels") % {
                "width": _text(stream.get("video_width")),
                "height": _text(stream.get("video_height"))}, "video_width"))
        if stream.get("video_fps") is not None:
            rows.append(Row(_("Frame rate"), _("%(fps)s frames/s") % {
                "fps": _number(stream.get("video_fps"), 3)}, "video_fps"))
        if stream.get("audio_channels") is not None:
            rows.append(Row(_("Channels"), _text(stream.get("audio_channels")),
                            "audio_channels"))
        if stream.get("audio_samplerate") is not None:
            rows.append(Row(_("Sample rate"), _("%(hz)s Hz") % {
                "hz": _number(stream.get("audio_samplerate"))}, "audio_samplerate"))
        metadata = stream.get("metadata") or {}
        rows.append(Row(_("Handler name"), _text(metadata.get("handler_name")), "handler_name"))
        rows.append(Row(_("Language"), _text(metadata.get("language")), "language"))
        title = _("Stream %(index)s") % {"index": _text(stream.get("index"))}
        tables.append(StreamTable(title=title, kind=kind, rows=rows))
    return tables


def parameter_value(value: object) -> str:
    """A request parameter as people read it: yes/no, a span as `from – to`."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list | tuple):
        return " – ".join(_text(item) for item in value)
    return _text(value)


def parameter_rows(parameters: JSONObject) -> list[Row]:
    """The job's request parameters with readable labels (the API word kept as the key)."""
    return [Row(parameter_label(name), parameter_value(value), name)
            for name, value in sorted(parameters.items())]


def segments(answer: dict[str, Any]) -> list[Segment]:
    """The playlist's segments from its time points (each segment's start), numbered from 0 as
    the clip page counts them; each lasts until the next point, the last until the end."""
    duration = answer.get("duration")
    points = [float(point) for point in answer.get("points") or []]
    result = []
    for number, start in enumerate(points):
        if number + 1 < len(points):
            length: float | None = points[number + 1] - start
        elif isinstance(duration, int | float):
            length = float(duration) - start
        else:
            length = None
        result.append(Segment(number=number, start=start, length=length))
    return result
