"""POST /<service>/m3u8er/clip: a new playlist keeping (`include`) or dropping (`exclude`)
spans of a playlist; see `spans` for how spans are read and which segments they keep.

`include` wins when both are given (DECISIONS.md): `exclude` is then ignored, unread. Where the
kept segments are not consecutive in the source (an excluded middle, or two include spans with
a gap), the joint is marked `#EXT-X-DISCONTINUITY`, since the timestamps jump there.
"""

from __future__ import annotations

from dataclasses import replace

from sandbox.core.json_types import JSONObject
from sandbox.media import bucket, fields, playlists, spans
from sandbox.media.errors import bad
from sandbox.media.playlists import Segment

FIELDS = ("m3u8", "save_as", "include", "exclude", "index")


def handle(service: str, body: JSONObject) -> JSONObject:
    fields.only(body, FIELDS, "m3u8er/clip")
    source_path = fields.required_path(body, "m3u8")
    save_as = fields.required_path(body, "save_as")
    index = fields.boolean(body, "index", default=False)
    name = "include"
    chosen = spans.parse_spans(body.get("include"), "include", index)
    if chosen is None:
        name = "exclude"
        chosen = spans.parse_spans(body.get("exclude"), "exclude", index)
    if chosen is None:
        raise bad("include", "give include or exclude: the spans to keep or to drop")
    found = bucket.source(service, source_path, "m3u8")
    playlist = playlists.parse(bucket.read_bytes(found, "m3u8"), source_path, "m3u8")
    if not playlist.segments:
        raise bad("m3u8", f"{source_path} has no segments to clip")
    spans.check_reachable(chosen, playlist.durations, index)
    kept = spans.kept_segments(playlist.durations, chosen, include=name == "include",
                               index=index)
    if not kept:
        raise bad(name, "keeps no segment of the playlist")
    segments = with_joints(playlist.segments, kept)
    bucket.save_text(service, save_as, playlists.render(segments, save_as, playlist.version))
    return {}


def with_joints(segments: list[Segment], kept: list[int]) -> list[Segment]:
    result: list[Segment] = []
    for order, position in enumerate(kept):
        segment = segments[position]
        jump = order > 0 and kept[order - 1] != position - 1
        result.append(replace(segment, discontinuity=segment.discontinuity or jump))
    return result
