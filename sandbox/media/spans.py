"""Clip spans: how `include` / `exclude` are read and which segments they keep.

A span is a pair `[start, end]`: seconds from the start of the playlist, or segment numbers
when `index` is true (numbered from 0 in playlist order, both ends included, so `[1, 1]` is the
second segment). A field holds one pair (`[0, 4]`) or a list of pairs (`[[0, 2], [6, 8]]`).

Segments are never cut, since the result only references the stored segments: in seconds, a
segment is kept when any part of it lies in what the request keeps. With `include`, that is a
segment overlapping an include span; with `exclude`, every segment not entirely inside an
exclude span (the union of the spans counts, so adjacent spans act as one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sandbox.media.errors import bad
from sandbox.media.fields import finite_number

MAX_SPANS = 100
EPSILON = 1e-6  # EXTINF durations are decimal text; sums of them are not exact


@dataclass(frozen=True)
class Span:
    start: float
    end: float
    label: str  # the field it came from, for error messages: `include` or `include[1]`


def parse_spans(value: Any, name: str, index: bool) -> list[Span] | None:
    """The spans of one field, or None when it is absent or empty."""
    if value is None or value == []:
        return None
    if not isinstance(value, list):
        raise bad(name, "must be a pair [start, end] or a list of such pairs")
    if not isinstance(value[0], list):
        return [parse_pair(value, name, index)]
    if len(value) > MAX_SPANS:
        raise bad(name, f"has {len(value)} spans; at most {MAX_SPANS} are accepted")
    return [parse_pair(item, f"{name}[{position}]", index)
            for position, item in enumerate(value)]


def parse_pair(value: Any, label: str, index: bool) -> Span:
    unit = "segment numbers" if index else "seconds"
    if not isinstance(value, list) or len(value) != 2:
        raise bad(label, f"a span must be a pair [start, end] of {unit}")
    start, end = (finite_number(item, label) for item in value)
    if start < 0 or end < 0:
        raise bad(label, f"{unit} cannot be negative")
    if index:
        if not (start.is_integer() and end.is_integer()):
            raise bad(label, "segment numbers must be integers (index is true)")
        if start > end:
            raise bad(label, f"start {int(start)} is after end {int(end)}")
    elif start >= end:
        raise bad(label, f"start {start:g} s must be before end {end:g} s")
    return Span(start, end, label)


def check_reachable(spans: list[Span], durations: list[float], index: bool) -> None:
    """A span that starts after the playlist ends is a mistake in the request, not a no-op."""
    total = sum(durations)
    for span in spans:
        if index and span.start >= len(durations):
            raise bad(span.label, f"segment {int(span.start)} does not exist: the playlist has "
                                  f"{len(durations)} segments, numbered from 0")
        if not index and span.start >= total - EPSILON:
            raise bad(span.label, f"starts at {span.start:g} s, at or after the end of the "
                                  f"playlist ({total:g} s)")


def kept_segments(durations: list[float], spans: list[Span], *, include: bool,
                  index: bool) -> list[int]:
    """Positions of the segments the clip keeps, in playlist order."""
    if index:
        inside = [any(span.start <= position <= span.end for span in spans)
                  for position in range(len(durations))]
        return [position for position, hit in enumerate(inside) if hit == include]
    merged = merge(spans)
    kept: list[int] = []
    start = 0.0
    for position, duration in enumerate(durations):
        end = start + duration
        if include:
            keep = any(start < span.end - EPSILON and end > span.start + EPSILON
                       for span in merged)
        else:
            keep = not any(span.start <= start + EPSILON and end <= span.end + EPSILON
                           for span in merged)
        if keep:
            kept.append(position)
        start = end
    return kept


def merge(spans: list[Span]) -> list[Span]:
    """The union of the spans as disjoint spans, in order; touching spans join."""
    merged: list[Span] = []
    for span in sorted(spans, key=lambda item: item.start):
        if merged and span.start <= merged[-1].end + EPSILON:
            last = merged[-1]
            merged[-1] = Span(last.start, max(last.end, span.end), last.label)
        else:
            merged.append(span)
    return merged
