"""POST /<service>/m3u8er/concat: one playlist that plays the input playlists in the order
given, each input after the first opened by `#EXT-X-DISCONTINUITY`.

The result references the inputs' segments where they are stored (nothing is copied), by URIs
relative to the folder of `save_as`. An input may be named more than once.
"""

from __future__ import annotations

from sandbox.core.json_types import JSONObject
from sandbox.media import bucket, fields, playlists
from sandbox.media.errors import bad

FIELDS = ("m3u8s", "save_as")
MAX_INPUTS = 100


def handle(service: str, body: JSONObject) -> JSONObject:
    fields.only(body, FIELDS, "m3u8er/concat")
    sources = fields.path_list(body, "m3u8s", MAX_INPUTS)
    save_as = fields.required_path(body, "save_as")
    inputs = []
    for position, path in enumerate(sources):
        field = f"m3u8s[{position}]"
        found = bucket.source(service, path, field)
        inputs.append(playlists.parse(bucket.read_bytes(found, field), path, field))
    segments = playlists.joined([playlist.segments for playlist in inputs])
    if not segments:
        raise bad("m3u8s", "the playlists hold no segments, so there is nothing to join")
    version = max(playlist.version for playlist in inputs)
    text = playlists.render(segments, save_as, version)
    bucket.save_text(service, save_as, text)
    return {}
