"""POST /<service>/m3u8er/get_meta: a playlist's duration and the time at which each of its
segments starts (`points`, in seconds, the first 0.0), from the EXTINF durations."""

from __future__ import annotations

from sandbox.core.json_types import JSONObject
from sandbox.media import bucket, fields, playlists

FIELDS = ("m3u8",)
DECIMALS = 6  # EXTINF text is decimal; sums of floats are not


def handle(service: str, body: JSONObject) -> JSONObject:
    fields.only(body, FIELDS, "m3u8er/get_meta")
    path = fields.required_path(body, "m3u8")
    found = bucket.source(service, path, "m3u8")
    playlist = playlists.parse(bucket.read_bytes(found, "m3u8"), path, "m3u8")
    return {"meta": {"duration": round(playlist.duration, DECIMALS),
                     "points": [round(point, DECIMALS) for point in playlist.starts()]}}
