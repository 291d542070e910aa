"""The spec's rules for media-processing requests, checked before anything is sent.

Pure (no Django, no I/O): `media.client` calls `require(...)` with every problem found, so one
`InvalidMediaRequest` lists every mistake of a request at once.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

SNAPSHOT_FORMATS = ("jpg", "png", "webp")

_POINT = re.compile(r"[0-9]{2}:[0-5][0-9]:[0-5][0-9]")
_SIZE = re.compile(r"([0-9]+)x([0-9]+)")


@dataclass(frozen=True)
class MediaProblem:
    """One invalid argument: `field` is the JSON field, `code` a stable machine word."""

    field: str
    code: str
    message: str


class InvalidMediaRequest(ValueError):
    """The request breaks the spec's rules; raised before anything is sent."""

    def __init__(self, problems: Sequence[MediaProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(problem.message for problem in self.problems))



def require(problems: Sequence[MediaProblem]) -> None:
    if problems:
        raise InvalidMediaRequest(problems)


def check_text(name: str, value: object) -> list[MediaProblem]:
    if not isinstance(value, str):
        return [MediaProblem(name, "type", f"{name} must be a string, got {value!r}")]
    if not value.strip():
        return [MediaProblem(name, "required", f"{name} is required")]
    return []


def check_path_list(name: str, values: object) -> list[MediaProblem]:
    if isinstance(values, str) or not isinstance(values, Sequence):
        return [MediaProblem(name, "type", f"{name} must be a list of storage paths")]
    if not values:
        return [MediaProblem(name, "required", f"{name} needs at least one playlist")]
    problems: list[MediaProblem] = []
    for position, value in enumerate(values):
        problems += check_text(f"{name}[{position}]", value)
    return problems


def check_point(point: object) -> list[MediaProblem]:
    if isinstance(point, str) and _POINT.fullmatch(point):
        return []
    return [MediaProblem("point", "invalid", f"point must be HH:MM:SS, got {point!r}")]


def check_size(size: object) -> list[MediaProblem]:
    if size is None:
        return []
    match = _SIZE.fullmatch(size) if isinstance(size, str) else None
    if match and int(match[1]) > 0 and int(match[2]) > 0:
        return []
    return [MediaProblem("size", "invalid", f"size must be <width>x<height>, got {size!r}")]


def check_format(format_: object, save_as: object) -> list[MediaProblem]:
    """An explicit format must be known; without one, `save_as`'s suffix decides and must be."""
    if format_ is not None:
        if format_ in SNAPSHOT_FORMATS:
            return []
        allowed = ", ".join(SNAPSHOT_FORMATS)
        return [
            MediaProblem("format", "invalid", f"format must be one of {allowed}, got {format_!r}")
        ]
    if not isinstance(save_as, str):
        return []  # reported against save_as
    suffix = save_as.rsplit("/", 1)[-1].rpartition(".")[2].lower() if "." in save_as else ""
    if suffix in SNAPSHOT_FORMATS:
        return []
    return [
        MediaProblem(
            "format",
            "required",
            f"format is required: the suffix of save_as {save_as!r} is not jpg, png or webp",
        )
    ]


def check_span(name: str, span: object, index: bool) -> list[MediaProblem]:
    """`[start, end]`: non-negative numbers with start < end, or whole segment numbers with
    start <= end when `index` (a span of segments includes both ends)."""
    if span is None:
        return []
    unit = "segment numbers" if index else "seconds"
    bad = MediaProblem(name, "invalid", f"{name} must be a pair [start, end] of {unit}")
    if isinstance(span, str | bytes) or not isinstance(span, Sequence) or len(span) != 2:
        return [bad]
    start, end = span
    for value in (start, end):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            return [bad]
        if index and not isinstance(value, int):
            return [MediaProblem(name, "invalid", f"{name} must be whole segment numbers")]
    if start < 0 or end < 0:
        return [MediaProblem(name, "invalid", f"{name} must not be negative")]
    # Segment numbers name whole segments, both ends included: [3, 3] is segment 3 alone.
    if index and start > end:
        return [MediaProblem(name, "invalid", f"{name} start must not be after its end")]
    if not index and start >= end:
        return [MediaProblem(name, "invalid", f"{name} start must be before its end")]
    return []
