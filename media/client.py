"""Client of the provider's synchronous media processing (spec part B, DECISIONS).

Five POST endpoints with JSON bodies, signed with the provider's current scheme where the
`Content-MD5` is the MD5 of the JSON body. Inputs are checked before the call (an invalid
request raises `InvalidMediaRequest` listing every problem, nothing is sent) and answers are
parsed into typed results that keep the provider's `X-Request-Id` for support.

Calls are never repeated here: concat, clip and snapshot write an output file, and whether to
try again after a failure is the caller's decision.

The signature is computed here rather than imported from `storage.signing` because apps do not
import each other's internals (ARCHITECTURE); it is the same published scheme, tested against
its own fixed example.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from email.utils import formatdate
from typing import Literal, TypeVar
from urllib.parse import quote, urlsplit

import requests

from media.rules import (
    SNAPSHOT_FORMATS,
    InvalidMediaRequest,
    MediaProblem,
    check_format,
    check_path_list,
    check_point,
    check_size,
    check_span,
    check_text,
    require,
)
from providerkit import json_readers as read
from providerkit.failures import NoAnswer, ShapeError, UnusableAnswer
from providerkit.json_types import JSONObject, JSONValue
from providerkit.observing import CallObserver
from providerkit.timeouts import check_timeout
from providerkit.transport import Transport, json_answer

__all__ = ["SNAPSHOT_FORMATS", "InvalidMediaRequest", "MediaClient", "MediaProblem"]

# Processing waits on the transcoder, so reads may take longer than providerkit's default.
DEFAULT_TIMEOUT = 60.0

# The header that carries the signed date: `Date` by default, or `X-Date`, which the provider
# takes in its place (its JavaScript SDK sends it, since a browser may not set `Date`).
DateHeader = Literal["Date", "X-Date"]
DATE_HEADERS: tuple[DateHeader, ...] = ("Date", "X-Date")



# --- signing ---------------------------------------------------------------------------------


def sign(method: str, uri: str, date: str, password: str, content_md5: str) -> str:
    """base64(HMAC-SHA1(key=md5hex(password), METHOD&URI&DATE&Content-MD5))."""
    key = hashlib.md5(password.encode("utf-8")).hexdigest().encode("ascii")
    plain = "&".join([method, uri, date, content_md5]).encode("utf-8")
    return base64.b64encode(hmac.new(key, plain, hashlib.sha1).digest()).decode("ascii")


def encode_body(payload: Mapping[str, object]) -> bytes:
    """Compact UTF-8 JSON: the exact bytes that are hashed into Content-MD5 and sent."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


# --- errors ----------------------------------------------------------------------------------


class MediaError(Exception):
    """An error answer: `status` is the HTTP status (0 when no answer arrived),
    `status_code` and `message` come from the body when it has them."""

    def __init__(
        self,
        message: str,
        *,
        status: int = 0,
        status_code: int | None = None,
        request_id: str | None = None,
    ) -> None:
        self.message = message
        self.status = status
        self.status_code = status_code
        self.request_id = request_id
        super().__init__(f"{message} (HTTP {status}, status_code {status_code})")


class MediaConnectionError(MediaError):
    """No answer: connection refused or reset, or a timeout."""


class MediaProtocolError(MediaError):
    """A success answer that does not have the documented shape."""


class MediaRequestError(MediaError):
    """400: request parameter error."""


class MediaUnauthorized(MediaRequestError):
    """401: worded by the spec as a parameter error too; in practice a refused signature or
    date, so it is a subclass that callers may tell apart."""


class MediaNotFound(MediaError):
    """404: the M3U8 or video does not exist."""


class MediaServerError(MediaError):
    """5xx: the provider failed."""


def _error_class(status: int) -> type[MediaError]:
    if status == 400:
        return MediaRequestError
    if status == 401:
        return MediaUnauthorized
    if status == 404:
        return MediaNotFound
    if status >= 500:
        return MediaServerError
    return MediaError


# --- results ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class MediaResult:
    """Common answer of concat and clip."""

    status_code: int
    message: str
    request_id: str | None


@dataclass(frozen=True, kw_only=True)
class SnapshotResult(MediaResult):
    content_type: str
    content_length: int
    save_as: str


@dataclass(frozen=True, kw_only=True)
class M3U8Meta(MediaResult):
    """Playlist duration and segment time points, in seconds."""

    duration: float
    points: list[float]


@dataclass(frozen=True, kw_only=True)
class AVFormat:
    """Container facts; fields the answer lacks are None."""

    bitrate: int | None = None
    duration: float | None = None
    format: str | None = None
    fullname: str | None = None
    filesize: float | None = None


@dataclass(frozen=True, kw_only=True)
class AVStream:
    """One stream; video fields are None on audio streams and the other way round."""

    index: int | None = None
    type: str | None = None
    bitrate: int | None = None
    codec: str | None = None
    codec_desc: str | None = None
    duration: float | None = None
    video_fps: float | None = None
    video_height: int | None = None
    video_width: int | None = None
    audio_channels: int | None = None
    audio_samplerate: int | None = None
    metadata: dict[str, str] = field(default_factory=dict)

    @property
    def handler_name(self) -> str | None:
        return self.metadata.get("handler_name")

    @property
    def language(self) -> str | None:
        return self.metadata.get("language")


@dataclass(frozen=True, kw_only=True)
class AVMeta:
    """Audio/video metadata: container `format` and every stream."""

    format: AVFormat
    streams: list[AVStream]
    request_id: str | None


# --- the client ------------------------------------------------------------------------------


class MediaClient:
    """Signed calls to `/<service>/...` of the media processing service; `date_header` names
    the header that carries the signed date (`Date` or `X-Date`)."""

    def __init__(
        self,
        base_url: str,
        service: str,
        operator: str,
        password: str,
        timeout: float = DEFAULT_TIMEOUT,
        session: requests.Session | None = None,
        *,
        clock: Callable[[], float] = time.time,
        date_header: DateHeader = "Date",
        observers: Sequence[CallObserver] = (),
    ) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"base_url must be http(s)://host[:port], got {base_url!r}")
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ValueError(f"base_url must not have a path or query, got {base_url!r}")
        if not service or "/" in service:
            raise ValueError(f"service must be a non-empty name without '/', got {service!r}")
        if not operator or ":" in operator:
            raise ValueError("operator must be a non-empty name without ':'")
        if date_header not in DATE_HEADERS:
            raise ValueError(
                f"date_header must be one of {', '.join(DATE_HEADERS)}, got {date_header!r}"
            )
        self.base_url = f"{parts.scheme}://{parts.netloc}"
        self.service = service
        self.operator = operator
        self._password = password
        self.timeout = check_timeout(timeout)
        self._transport = Transport(
            "media", self.base_url, session=session, timeout=timeout, observers=observers
        )
        self._clock = clock
        self.date_header: DateHeader = date_header

    def __repr__(self) -> str:  # never show the password
        return f"MediaClient({self.base_url!r}, service={self.service!r})"

    def concat(self, m3u8s: Sequence[str], save_as: str) -> MediaResult:
        """Join playlists in the given order into `save_as`."""
        problems = check_path_list("m3u8s", m3u8s) + check_text("save_as", save_as)
        require(problems)
        payload = {"m3u8s": list(m3u8s), "save_as": save_as}
        return _parse(_parse_common, *self._post("m3u8er/concat", payload))

    def clip(
        self,
        m3u8: str,
        save_as: str,
        *,
        include: Sequence[float] | None = None,
        exclude: Sequence[float] | None = None,
        index: bool = False,
    ) -> MediaResult:
        """Keep (`include`) or drop (`exclude`) the span `[start, end]` of a playlist.

        Spans are seconds, or segment numbers when `index` is true. At least one is needed;
        when both are given the provider applies `include` only.
        """
        problems = check_text("m3u8", m3u8) + check_text("save_as", save_as)
        if not isinstance(index, bool):
            problems.append(MediaProblem("index", "type", "index must be true or false"))
            index = False
        if include is None and exclude is None:
            problems.append(MediaProblem("include", "required", "give include or exclude"))
        problems += check_span("include", include, index) + check_span("exclude", exclude, index)
        require(problems)
        payload: dict[str, object] = {"m3u8": m3u8, "save_as": save_as, "index": index}
        if include is not None:
            payload["include"] = list(include)
        if exclude is not None:
            payload["exclude"] = list(exclude)
        return _parse(_parse_common, *self._post("m3u8er/clip", payload))

    def snapshot(
        self,
        source: str,
        save_as: str,
        point: str,
        *,
        size: str | None = None,
        format: str | None = None,
    ) -> SnapshotResult:
        """Grab the frame at `point` (`HH:MM:SS`) into an image at `save_as`.

        `size` (`<w>x<h>`) defaults to the video's size; `format` to the suffix of `save_as`,
        which must then be one of jpg, png, webp.
        """
        problems = check_text("source", source) + check_text("save_as", save_as)
        problems += check_point(point) + check_size(size) + check_format(format, save_as)
        require(problems)
        payload: dict[str, object] = {"source": source, "save_as": save_as, "point": point}
        if size is not None:
            payload["size"] = size
        if format is not None:
            payload["format"] = format
        return _parse(_parse_snapshot, *self._post("snapshot", payload))

    def m3u8_meta(self, m3u8: str) -> M3U8Meta:
        """Duration and time points of a playlist."""
        require(check_text("m3u8", m3u8))
        return _parse(_parse_m3u8_meta, *self._post("m3u8er/get_meta", {"m3u8": m3u8}))

    def av_meta(self, source: str) -> AVMeta:
        """Container format and streams of an audio or video file."""
        require(check_text("source", source))
        return _parse(_parse_av_meta, *self._post("avmeta/get_meta", {"source": source}))

    # --- transport ---

    def _post(
        self, endpoint: str, payload: Mapping[str, object]
    ) -> tuple[JSONObject, str | None]:
        """Send one signed POST; returns the JSON body and the `X-Request-Id`."""
        uri = quote(f"/{self.service}/{endpoint}", safe="/")
        body = encode_body(payload)
        content_md5 = hashlib.md5(body).hexdigest()
        date = formatdate(self._clock(), usegmt=True)
        signature = sign("POST", uri, date, self._password, content_md5)
        headers = {
            self.date_header: date,
            "Content-Type": "application/json",
            "Content-MD5": content_md5,
            "Authorization": f"SVC {self.operator}:{signature}",
        }
        try:
            response = self._transport.request(
                "POST", uri, data=body, headers=headers, allow_redirects=False
            )
        except NoAnswer as failure:
            # Any `requests` failure here means no usable answer arrived.
            raise MediaConnectionError(f"POST {uri} failed: {failure.__cause__}") from (
                failure.__cause__
            )
        request_id = response.headers.get("X-Request-Id")
        try:
            answer: JSONValue = json_answer(response, f"POST {uri}")
        except UnusableAnswer:
            answer = None  # an error status may come with any body: its status still counts
        answer_dict: JSONObject = answer if isinstance(answer, dict) else {}
        body_code = _as_int(answer_dict.get("status_code"))
        if response.status_code != 200 or (body_code is not None and body_code != 200):
            message = str(answer_dict.get("message") or answer_dict.get("msg") or response.reason)
            status = response.status_code if response.status_code != 200 else body_code or 0
            raise _error_class(status)(
                message, status=response.status_code, status_code=body_code, request_id=request_id
            )
        if not isinstance(answer, dict):
            raise MediaProtocolError(
                "answer is not a JSON object", status=200, request_id=request_id
            )
        return answer_dict, request_id


# --- answer parsing --------------------------------------------------------------------------

T = TypeVar("T")


# The kit's ShapeError: a success answer missing a field or holding the wrong type. Media's
# numbers may come as numeric strings: the kit's *_number readers take both.
_Malformed = ShapeError


def _parse(
    parser: Callable[[JSONObject, str | None], T],
    body: JSONObject,
    request_id: str | None,
) -> T:
    try:
        return parser(body, request_id)
    except _Malformed as exc:
        raise MediaProtocolError(str(exc), status=200, request_id=request_id) from exc


def _as_int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def _parse_common(body: JSONObject, request_id: str | None) -> MediaResult:
    status_code = _as_int(body.get("status_code"))
    return MediaResult(
        status_code=status_code if status_code is not None else 200,
        message=str(body.get("message") or ""),
        request_id=request_id,
    )


def _parse_snapshot(body: JSONObject, request_id: str | None) -> SnapshotResult:
    common = _parse_common(body, request_id)
    return SnapshotResult(
        status_code=common.status_code,
        message=common.message,
        request_id=request_id,
        content_type=read.read_str(body, "content_type", "answer"),
        content_length=read.read_whole_number(body, "content_length", "answer"),
        save_as=read.read_str(body, "save_as", "answer"),
    )


def _parse_m3u8_meta(body: JSONObject, request_id: str | None) -> M3U8Meta:
    common = _parse_common(body, request_id)
    meta = body.get("meta")
    if not isinstance(meta, dict):
        raise _Malformed("answer has no meta object")
    points = meta.get("points")
    if points is None:
        points = []
    if not isinstance(points, list):
        raise _Malformed("meta.points is not a list")
    return M3U8Meta(
        status_code=common.status_code,
        message=common.message,
        request_id=request_id,
        duration=read.read_real_number(meta, "duration", "meta"),
        points=[read.as_real_number(point, "meta.points") for point in points],
    )


def _parse_av_meta(body: JSONObject, request_id: str | None) -> AVMeta:
    raw_format = body.get("format")
    raw_streams = body.get("streams")
    if not isinstance(raw_format, dict):
        raise _Malformed("answer has no format object")
    if not isinstance(raw_streams, list):
        raise _Malformed("answer has no streams list")
    media_format = AVFormat(
        bitrate=read.optional_whole_number(raw_format, "bitrate", "format"),
        duration=read.optional_real_number(raw_format, "duration", "format"),
        format=read.optional_str(raw_format, "format", "format"),
        fullname=read.optional_str(raw_format, "fullname", "format"),
        filesize=read.optional_real_number(raw_format, "filesize", "format"),
    )
    streams = [_parse_stream(stream, number) for number, stream in enumerate(raw_streams)]
    return AVMeta(format=media_format, streams=streams, request_id=request_id)


def _parse_stream(raw: object, number: int) -> AVStream:
    where = f"streams[{number}]"
    if not isinstance(raw, dict):
        raise _Malformed(f"streams[{number}] is not an object")
    metadata = raw.get("metadata")
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, dict):
        raise _Malformed(f"{where}: field 'metadata' is not an object")
    return AVStream(
        index=read.optional_whole_number(raw, "index", where),
        type=read.optional_str(raw, "type", where),
        bitrate=read.optional_whole_number(raw, "bitrate", where),
        codec=read.optional_str(raw, "codec", where),
        codec_desc=read.optional_str(raw, "codec_desc", where),
        duration=read.optional_real_number(raw, "duration", where),
        video_fps=read.optional_real_number(raw, "video_fps", where),
        video_height=read.optional_whole_number(raw, "video_height", where),
        video_width=read.optional_whole_number(raw, "video_width", where),
        audio_channels=read.optional_whole_number(raw, "audio_channels", where),
        audio_samplerate=read.optional_whole_number(raw, "audio_samplerate", where),
        metadata={str(key): str(value) for key, value in metadata.items()},
    )
