"""M3U8 media playlists: read with the `m3u8` package, rewritten by hand for concat and clip.

Every URI of a playlist (segment, key, initialisation section) is resolved to a `Ref`: a file
of the bucket when the URI is relative (to the playlist's folder) or an absolute path (from the
bucket root), the way a player fetching the playlist through the CDN would resolve it; a URI
with a scheme or host is external and kept exactly as written. A written playlist references
bucket files relative to its own folder, so it plays wherever the bucket is served from.

What is kept of a segment: duration, title, byte range (offsets made explicit, as a clip can
drop the segment an implicit offset counted from), encryption key, initialisation section and
discontinuity. Other per-segment tags (program date time, gaps, ...) are not carried over.
"""

from __future__ import annotations

import math
import posixpath
from dataclasses import dataclass, replace
from urllib.parse import quote, unquote, urlsplit

import m3u8
import m3u8.model

from sandbox.media.errors import bad, failed

DEFAULT_VERSION = 3  # the lowest version that allows decimal EXTINF durations


@dataclass(frozen=True)
class Ref:
    """A URI of a playlist: `path` is a bucket path, or the URI verbatim when `external`."""

    path: str
    query: str = ""
    external: bool = False

    def uri(self, folder: str) -> str:
        """The URI that reaches this file from a playlist stored in `folder`."""
        if self.external:
            return self.path
        relative = quote(posixpath.relpath(self.path, folder), safe="/")
        return f"{relative}?{self.query}" if self.query else relative


@dataclass(frozen=True)
class ByteRange:
    length: int
    offset: int

    def text(self) -> str:
        return f"{self.length}@{self.offset}"


@dataclass(frozen=True)
class Key:
    method: str
    ref: Ref | None
    iv: str | None
    keyformat: str | None
    keyformatversions: str | None

    @property
    def encrypted(self) -> bool:
        return self.method.upper() != "NONE"

    def tag(self, folder: str) -> str:
        attributes = [f"METHOD={self.method}"]
        if self.ref is not None:
            attributes.append(f'URI="{self.ref.uri(folder)}"')
        if self.iv:
            attributes.append(f"IV={self.iv}")
        if self.keyformat:
            attributes.append(f'KEYFORMAT="{self.keyformat}"')
        if self.keyformatversions:
            attributes.append(f'KEYFORMATVERSIONS="{self.keyformatversions}"')
        return "#EXT-X-KEY:" + ",".join(attributes)


@dataclass(frozen=True)
class InitSection:
    ref: Ref
    byterange: ByteRange | None

    def tag(self, folder: str) -> str:
        attributes = [f'URI="{self.ref.uri(folder)}"']
        if self.byterange is not None:
            attributes.append(f'BYTERANGE="{self.byterange.text()}"')
        return "#EXT-X-MAP:" + ",".join(attributes)


@dataclass(frozen=True)
class Segment:
    ref: Ref
    duration: float
    title: str = ""
    byterange: ByteRange | None = None
    key: Key | None = None
    init: InitSection | None = None
    discontinuity: bool = False


@dataclass(frozen=True)
class Playlist:
    path: str
    version: int
    segments: list[Segment]

    @property
    def durations(self) -> list[float]:
        return [segment.duration for segment in self.segments]

    @property
    def duration(self) -> float:
        return math.fsum(self.durations)

    def starts(self) -> list[float]:
        """The time at which each segment begins, in seconds from the start."""
        points, elapsed = [], 0.0
        for duration in self.durations:
            points.append(elapsed)
            elapsed = math.fsum([elapsed, duration])
        return points


def resolve(uri: str, folder: str) -> Ref:
    parts = urlsplit(uri)
    if parts.scheme or parts.netloc:
        return Ref(uri, external=True)
    decoded = unquote(parts.path)
    target = decoded if decoded.startswith("/") else posixpath.join(folder, decoded)
    return Ref(posixpath.normpath(target), parts.query)


def parse(raw: bytes, path: str, field: str) -> Playlist:
    """The media playlist stored at `path`; unreadable content is a processing failure (500)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise failed(f"{field}: {path} is not an M3U8 playlist (not UTF-8 text)") from None
    if not text.lstrip().startswith("#EXTM3U"):
        raise failed(f"{field}: {path} is not an M3U8 playlist (it does not start with #EXTM3U)")
    try:
        document = m3u8.loads(text)
    except Exception as error:  # the parser raises ValueError, IndexError, ... on bad tags
        raise failed(f"{field}: {path} could not be read as M3U8 ({error})") from None
    if document.is_variant:
        raise bad(field, f"{path} is a master playlist (it lists variant streams); give a "
                         f"media playlist of segments")
    folder = posixpath.dirname(path)
    segments: list[Segment] = []
    next_offsets: dict[str, int] = {}
    for position, item in enumerate(document.segments):
        if item.duration is None or not math.isfinite(item.duration) or item.duration < 0:
            raise failed(f"{field}: segment {position} of {path} has no valid #EXTINF duration")
        if not item.uri:
            raise failed(f"{field}: segment {position} of {path} has no URI")
        ref = resolve(item.uri, folder)
        byterange = None
        if item.byterange:
            byterange = parse_byterange(item.byterange, next_offsets.get(ref.path, 0), field,
                                        path, position)
            next_offsets[ref.path] = byterange.offset + byterange.length
        segments.append(Segment(
            ref=ref, duration=float(item.duration), title=item.title or "", byterange=byterange,
            key=key_of(item.key, folder), init=init_of(item.init_section, folder, field, path,
                                                       position),
            discontinuity=bool(item.discontinuity),
        ))
    return Playlist(path, int(document.version or DEFAULT_VERSION), segments)


def parse_byterange(text: str, next_offset: int, field: str, path: str,
                    position: int) -> ByteRange:
    length, _, offset = text.partition("@")
    try:
        byterange = ByteRange(int(length), int(offset) if offset else next_offset)
    except ValueError:
        raise failed(f"{field}: segment {position} of {path} has a bad byte range "
                     f"{text!r}") from None
    if byterange.length < 0 or byterange.offset < 0:
        raise failed(f"{field}: segment {position} of {path} has a bad byte range {text!r}")
    return byterange


def key_of(key: m3u8.model.Key | None, folder: str) -> Key | None:
    if key is None or not key.method:
        return None
    ref = resolve(key.uri, folder) if key.uri else None
    return Key(key.method, ref, key.iv, key.keyformat, key.keyformatversions)


def init_of(section: m3u8.model.InitializationSection | None, folder: str, field: str, path: str,
            position: int) -> InitSection | None:
    if section is None or not section.uri:
        return None
    byterange = parse_byterange(section.byterange, 0, field, path, position) \
        if section.byterange else None
    return InitSection(resolve(section.uri, folder), byterange)


def joined(parts: list[list[Segment]]) -> list[Segment]:
    """Segment runs one after the other, each run after the first opened by a discontinuity,
    since timestamps and encoding parameters may change between them."""
    segments: list[Segment] = []
    for run in parts:
        for position, segment in enumerate(run):
            starts_run = position == 0 and bool(segments)
            segments.append(replace(segment, discontinuity=segment.discontinuity or starts_run))
    return segments


def render(segments: list[Segment], save_as: str, version: int) -> str:
    """A VOD media playlist of `segments`, to be stored at `save_as`."""
    folder = posixpath.dirname(save_as)
    longest = max((segment.duration for segment in segments), default=0.0)
    lines = [
        "#EXTM3U",
        f"#EXT-X-VERSION:{max(version, DEFAULT_VERSION)}",
        f"#EXT-X-TARGETDURATION:{max(1, math.ceil(longest - 1e-6))}",
        "#EXT-X-MEDIA-SEQUENCE:0",
        "#EXT-X-PLAYLIST-TYPE:VOD",
    ]
    key: Key | None = None
    init: InitSection | None = None
    for position, segment in enumerate(segments):
        if segment.discontinuity and position > 0:
            lines.append("#EXT-X-DISCONTINUITY")
        if segment.key != key:
            # A segment without a key after an encrypted one must say so explicitly.
            current = segment.key or Key("NONE", None, None, None, None)
            if segment.key is not None or (key is not None and key.encrypted):
                lines.append(current.tag(folder))
            key = segment.key
        if segment.init is not None and segment.init != init:
            lines.append(segment.init.tag(folder))
        init = segment.init
        lines.append(f"#EXTINF:{segment.duration:.6f},{segment.title}")
        if segment.byterange is not None:
            lines.append(f"#EXT-X-BYTERANGE:{segment.byterange.text()}")
        lines.append(segment.ref.uri(folder))
    lines.append("#EXT-X-ENDLIST")
    return "\n".join(lines) + "\n"
