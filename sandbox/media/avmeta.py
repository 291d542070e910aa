"""POST /<service>/avmeta/get_meta: the container and streams of a stored audio or video file.

An M3U8 playlist is refused with a pointer to m3u8er/get_meta: its duration and time points are
that endpoint's answer, and a playlist is a text file FFmpeg would read as a list of URLs.
"""

from __future__ import annotations

from sandbox.core.json_types import JSONObject
from sandbox.media import bucket, fields, probe
from sandbox.media.errors import bad

FIELDS = ("source",)


def handle(service: str, body: JSONObject) -> JSONObject:
    fields.only(body, FIELDS, "avmeta/get_meta")
    path = fields.required_path(body, "source")
    found = bucket.source(service, path, "source")
    if bucket.looks_like_playlist(found):
        raise bad("source", f"{path} is an M3U8 playlist; ask m3u8er/get_meta for its duration "
                            f"and segment points")
    assert found.local_path is not None
    return probe.describe(found.local_path, found.size, field="source", shown_as=path)
