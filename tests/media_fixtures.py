"""Test media made on the spot with PyAV, and the signed HTTP calls that put it to work.

- `make_video`: a few seconds of H.264 test pattern in MP4 with an AAC tone. Each second of
  picture is one solid colour (`colour_at`), so a snapshot can be checked for the right moment,
  not only for its size. Keyframes fall every `keyframe_s` seconds.
- `make_hls`: an HLS playlist cut from such an MP4 (MPEG-TS segments starting at keyframes,
  remuxed, not re-encoded) and its `.m3u8`, written by hand here so that the code under test
  parses text it did not write.
- `make_fmp4_hls`, `make_byterange_hls`: the same cut as one fragmented MP4 (EXT-X-MAP and
  byte ranges) and as one transport stream addressed by byte ranges.
- `make_audio`: an AAC tone in M4A, a file with no video stream.
- `make_media_set`: all of the above once per directory (cached), for session fixtures.
- `StorageClient` puts files into the storage sandbox and reads them back; `MediaClient` calls
  the media-processing sandbox with the signature and Content-MD5 of DECISIONS.md. Both sign
  with the current scheme, in code written here, independently of the sandbox and of the
  back-office clients.
- `MediaLab` bundles a sandbox, the session's files and both clients for one test.

Nothing is downloaded; everything is small (the 6-second set is under 300 KB).
"""

from __future__ import annotations

import array
import base64
import hashlib
import hmac
import json
import math
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import formatdate
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import quote

import av
import requests
from PIL import Image

# One colour per second of video (repeating); far apart, so that H.264 and JPEG cannot blur
# one into another.
COLOURS: tuple[tuple[int, int, int], ...] = (
    (220, 40, 40), (40, 200, 60), (40, 60, 220), (230, 210, 40), (200, 50, 200),
    (40, 200, 210), (240, 240, 240), (30, 30, 30),
)
AUDIO_FRAME_SAMPLES = 1024


@dataclass(frozen=True)
class VideoSpec:
    """What `make_video` encodes; tests compare the sandbox's answers with these values."""

    seconds: int = 6
    width: int = 320
    height: int = 240
    fps: int = 25
    sample_rate: int = 44_100
    channels: int = 2
    tone_hz: int = 441  # divides 44100: the tone's period is a whole number of samples
    keyframe_s: int = 2
    video_codec: str = "h264"
    audio_codec: str = "aac"


@dataclass(frozen=True)
class HlsSet:
    directory: Path
    playlist: Path
    segments: list[Path]
    durations: list[float]

    @property
    def duration(self) -> float:
        return math.fsum(self.durations)


@dataclass(frozen=True)
class MediaSet:
    """The files of one session: a video, its HLS cut (also as fragmented MP4 and as one
    transport stream addressed by byte ranges), a shorter HLS video, an audio file and a
    truncated (corrupt) copy of the video."""

    spec: VideoSpec
    mp4: Path
    hls: HlsSet
    short_spec: VideoSpec
    short_hls: HlsSet
    fmp4_hls: HlsSet
    byterange_hls: HlsSet
    audio: Path
    truncated_mp4: Path


def colour_at(seconds: float) -> tuple[int, int, int]:
    """The colour of the picture at `seconds` into a `make_video` video."""
    return COLOURS[int(seconds) % len(COLOURS)]


def make_video(path: Path, spec: VideoSpec = VideoSpec()) -> Path:
    """Encode `spec.seconds` of test pattern (H.264, yuv420p) and tone (AAC) into MP4."""
    with av.open(str(path), mode="w", format="mp4") as container:
        video = container.add_stream(spec.video_codec, rate=spec.fps)
        assert isinstance(video, av.VideoStream)
        video.width, video.height, video.pix_fmt = spec.width, spec.height, "yuv420p"
        keyframe_every = str(spec.fps * spec.keyframe_s)
        video.options = {"g": keyframe_every, "keyint_min": keyframe_every,
                         "sc_threshold": "0", "preset": "ultrafast"}
        audio = container.add_stream(spec.audio_codec, rate=spec.sample_rate,
                                     layout=layout_of(spec.channels))
        assert isinstance(audio, av.AudioStream)
        for number in range(spec.seconds * spec.fps):
            picture = Image.new("RGB", (spec.width, spec.height), colour_at(number / spec.fps))
            frame = av.VideoFrame.from_image(picture)
            frame.pts = number
            frame.time_base = Fraction(1, spec.fps)
            container.mux(video.encode(frame))
        for tone in tone_frames(spec):
            container.mux(audio.encode(tone))
        container.mux(video.encode(None))
        container.mux(audio.encode(None))
    return path


def make_audio(path: Path, spec: VideoSpec = VideoSpec()) -> Path:
    """An AAC tone of `spec.seconds` in an M4A container: a media file without video."""
    with av.open(str(path), mode="w", format="ipod") as container:
        audio = container.add_stream(spec.audio_codec, rate=spec.sample_rate,
                                     layout=layout_of(spec.channels))
        assert isinstance(audio, av.AudioStream)
        for frame in tone_frames(spec):
            container.mux(audio.encode(frame))
        container.mux(audio.encode(None))
    return path


def layout_of(channels: int) -> str:
    return {1: "mono", 2: "stereo"}[channels]


def tone_frames(spec: VideoSpec) -> list[av.AudioFrame]:
    """A sine tone as signed 16-bit interleaved frames of AUDIO_FRAME_SAMPLES samples."""
    period = spec.sample_rate // spec.tone_hz
    one_period = array.array("h")
    for sample in range(period):
        value = int(0.3 * 32767 * math.sin(2 * math.pi * sample / period))
        one_period.extend([value] * spec.channels)
    total = spec.seconds * spec.sample_rate
    pcm = (one_period.tobytes() * (total // period + 1))
    bytes_per_sample = 2 * spec.channels
    frames = []
    for start in range(0, total, AUDIO_FRAME_SAMPLES):
        count = min(AUDIO_FRAME_SAMPLES, total - start)
        frame = av.AudioFrame(format="s16", layout=layout_of(spec.channels), samples=count)
        frame.planes[0].update(pcm[start * bytes_per_sample:(start + count) * bytes_per_sample])
        frame.sample_rate = spec.sample_rate
        frame.pts = start
        frame.time_base = Fraction(1, spec.sample_rate)
        frames.append(frame)
    return frames


def make_hls(mp4: Path, directory: Path, segment_s: float = 2.0, *,
             playlist_name: str = "index.m3u8", segment_prefix: str = "seg") -> HlsSet:
    """Cut `mp4` into MPEG-TS segments of about `segment_s` seconds, each starting at a video
    keyframe, and write their playlist; EXTINF durations are the measured ones."""
    directory.mkdir(parents=True, exist_ok=True)
    segments: list[Path] = []
    starts: list[float] = []
    video_end = 0.0
    with av.open(str(mp4)) as source:
        video_in, audio_in = source.streams.video[0], source.streams.audio[0]
        output: Any = None
        mapping: dict[int, Any] = {}
        for packet in source.demux(video_in, audio_in):
            if packet.dts is None:
                continue  # the demuxer's flush packets
            assert packet.pts is not None and packet.duration is not None
            if packet.stream.type == "video" and packet.is_keyframe:
                start = float(packet.pts * packet.time_base)
                if output is None or start - starts[-1] >= segment_s - 1e-6:
                    if output is not None:
                        output.close()
                    segments.append(directory / f"{segment_prefix}{len(segments)}.ts")
                    starts.append(start)
                    output = av.open(str(segments[-1]), mode="w", format="mpegts")
                    mapping = {video_in.index: output.add_stream_from_template(video_in),
                               audio_in.index: output.add_stream_from_template(audio_in)}
            if output is None:
                continue
            if packet.stream.type == "video":
                video_end = max(video_end,
                                float((packet.pts + packet.duration) * packet.time_base))
            packet.stream = mapping[packet.stream.index]
            output.mux(packet)
        if output is not None:
            output.close()
    durations = [end - start for start, end in zip(starts, [*starts[1:], video_end],
                                                    strict=True)]
    playlist = directory / playlist_name
    playlist.write_text(playlist_text([path.name for path in segments], durations))
    return HlsSet(directory, playlist, segments, durations)


def playlist_text(uris: list[str], durations: list[float]) -> str:
    lines = ["#EXTM3U", "#EXT-X-VERSION:3",
             f"#EXT-X-TARGETDURATION:{math.ceil(max(durations))}", "#EXT-X-MEDIA-SEQUENCE:0"]
    for uri, duration in zip(uris, durations, strict=True):
        lines += [f"#EXTINF:{duration:.6f},", uri]
    lines.append("#EXT-X-ENDLIST")
    return "\n".join(lines) + "\n"


def make_fmp4_hls(mp4: Path, directory: Path, *, name: str = "stream.mp4",
                  playlist_name: str = "index.m3u8") -> HlsSet:
    """One fragmented MP4 (a fragment at each video keyframe) and a playlist addressing its
    initialisation section (`#EXT-X-MAP` with BYTERANGE) and fragments by byte range."""
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / name
    starts: list[float] = []
    video_end = 0.0
    options = {"movflags": "frag_keyframe+empty_moov+default_base_moof"}
    with av.open(str(mp4)) as source, \
            av.open(str(target), mode="w", format="mp4", options=options) as output:
        video_in, audio_in = source.streams.video[0], source.streams.audio[0]
        mapping = {video_in.index: output.add_stream_from_template(video_in),
                   audio_in.index: output.add_stream_from_template(audio_in)}
        for packet in source.demux(video_in, audio_in):
            if packet.dts is None:
                continue
            assert packet.pts is not None and packet.duration is not None
            if packet.stream.type == "video":
                if packet.is_keyframe:
                    starts.append(float(packet.pts * packet.time_base))
                video_end = max(video_end,
                                float((packet.pts + packet.duration) * packet.time_base))
            packet.stream = mapping[packet.stream.index]
            output.mux(packet)
    boxes = top_level_boxes(target.read_bytes())
    init_end = next(offset + size for offset, size, kind in boxes if kind == b"moov")
    pairs = zip(boxes, boxes[1:], strict=False)  # each box with the one after it
    fragments = [(offset, size + next_size)
                 for (offset, size, kind), (_, next_size, next_kind) in pairs
                 if kind == b"moof" and next_kind == b"mdat"]
    durations = [end - start for start, end in zip(starts, [*starts[1:], video_end],
                                                    strict=True)]
    if len(fragments) != len(durations):
        raise AssertionError(f"{len(fragments)} fragments for {len(durations)} keyframes")
    lines = ["#EXTM3U", "#EXT-X-VERSION:7", f"#EXT-X-TARGETDURATION:{math.ceil(max(durations))}",
             f'#EXT-X-MAP:URI="{name}",BYTERANGE="{init_end}@0"']
    for (offset, length), duration in zip(fragments, durations, strict=True):
        lines += [f"#EXTINF:{duration:.6f},", f"#EXT-X-BYTERANGE:{length}@{offset}", name]
    playlist = directory / playlist_name
    playlist.write_text("\n".join([*lines, "#EXT-X-ENDLIST"]) + "\n")
    return HlsSet(directory, playlist, [target], durations)


def top_level_boxes(data: bytes) -> list[tuple[int, int, bytes]]:
    """(offset, size, type) of each top-level ISO-BMFF box."""
    boxes, offset = [], 0
    while offset + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if size < 8:
            raise AssertionError(f"unexpected box size {size} at {offset}")
        boxes.append((offset, size, kind))
        offset += size
    return boxes


def make_byterange_hls(hls: HlsSet, directory: Path, *, name: str = "all.ts",
                       playlist_name: str = "index.m3u8") -> HlsSet:
    """The segments of `hls` joined into one transport stream, addressed by byte range: the
    first range with its offset, the others without (they follow the previous one)."""
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / name
    parts = [segment.read_bytes() for segment in hls.segments]
    target.write_bytes(b"".join(parts))
    lines = ["#EXTM3U", "#EXT-X-VERSION:4",
             f"#EXT-X-TARGETDURATION:{math.ceil(max(hls.durations))}"]
    for position, (part, duration) in enumerate(zip(parts, hls.durations, strict=True)):
        byterange = f"{len(part)}@0" if position == 0 else str(len(part))
        lines += [f"#EXTINF:{duration:.6f},", f"#EXT-X-BYTERANGE:{byterange}", name]
    playlist = directory / playlist_name
    playlist.write_text("\n".join([*lines, "#EXT-X-ENDLIST"]) + "\n")
    return HlsSet(directory, playlist, [target], list(hls.durations))


_made: dict[Path, MediaSet] = {}


def make_media_set(directory: Path) -> MediaSet:
    """Every fixture file under `directory`, made once per directory and process."""
    if directory in _made:
        return _made[directory]
    directory.mkdir(parents=True, exist_ok=True)
    spec, short_spec = VideoSpec(), VideoSpec(seconds=4)
    mp4 = make_video(directory / "pattern.mp4", spec)
    short_mp4 = make_video(directory / "short.mp4", short_spec)
    truncated = directory / "truncated.mp4"
    data = mp4.read_bytes()
    truncated.write_bytes(data[: len(data) // 2])
    hls = make_hls(mp4, directory / "hls")
    made = MediaSet(
        spec=spec, mp4=mp4, hls=hls, short_spec=short_spec,
        short_hls=make_hls(short_mp4, directory / "short-hls", segment_prefix="part"),
        fmp4_hls=make_fmp4_hls(mp4, directory / "fmp4-hls"),
        byterange_hls=make_byterange_hls(hls, directory / "byterange-hls"),
        audio=make_audio(directory / "tone.m4a", VideoSpec(seconds=3)),
        truncated_mp4=truncated,
    )
    _made[directory] = made
    return made


# --- signed calls ---------------------------------------------------------------------------


def md5_hex(data: str | bytes) -> str:
    return hashlib.md5(data.encode() if isinstance(data, str) else data).hexdigest()


def current_signature(method: str, uri: str, date: str, password: str,
                      content_md5: str = "") -> str:
    """base64(HMAC-SHA1(key=md5hex(password), METHOD&URI&DATE[&Content-MD5]))."""
    text = f"{method}&{uri}&{date}" + (f"&{content_md5}" if content_md5 else "")
    digest = hmac.new(md5_hex(password).encode(), text.encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode()


@dataclass
class Account:
    """The storage credentials of a sandbox, and its clock (Dates must be within 30 min)."""

    bucket: str
    operator: str
    password: str
    clock: Callable[[], float] = time.time

    @classmethod
    def of_sandbox(cls, sandbox: Any) -> Account:
        storage = sandbox.info["storage"]
        return cls(storage["bucket"], storage["operator"], storage["password"], sandbox.now)

    def date(self, offset_s: float = 0) -> str:
        return formatdate(self.clock() + offset_s, usegmt=True)


@dataclass
class StorageClient:
    """PUTs files into the storage sandbox and GETs them back, signed with the current scheme
    (Content-MD5 sent and signed on uploads)."""

    storage_url: str
    account: Account

    @classmethod
    def of_sandbox(cls, sandbox: Any) -> StorageClient:
        return cls(sandbox.info["storage_url"], Account.of_sandbox(sandbox))

    def request(self, method: str, path: str, data: bytes = b"",
                headers: dict[str, str] | None = None) -> requests.Response:
        uri = quote(f"/{self.account.bucket}{path}", safe="/")
        date = self.account.date()
        content_md5 = md5_hex(data) if data else ""
        signature = current_signature(method, uri, date, self.account.password, content_md5)
        sent = {**(headers or {}), "Date": date,
                "Authorization": f"SVC {self.account.operator}:{signature}"}
        if content_md5:
            sent["Content-MD5"] = content_md5
        return requests.request(method, self.storage_url + uri, data=data or None,
                                headers=sent, timeout=60)

    def put_bytes(self, data: bytes, path: str, content_type: str = "") -> requests.Response:
        headers = {"Content-Type": content_type} if content_type else {}
        response = self.request("PUT", path, data, headers)
        if response.status_code != 200:
            raise AssertionError(f"upload of {path} failed: {response.status_code} "
                                 f"{response.text}")
        return response

    def put(self, local: Path, path: str, content_type: str = "") -> requests.Response:
        return self.put_bytes(local.read_bytes(), path, content_type)

    def put_hls(self, hls: HlsSet, folder: str) -> str:
        """Upload the segments, then the playlist, into `folder`; the playlist's path."""
        for segment in hls.segments:
            self.put(segment, f"{folder}/{segment.name}", "video/mp2t")
        playlist = f"{folder}/{hls.playlist.name}"
        self.put(hls.playlist, playlist, "application/vnd.apple.mpegurl")
        return playlist

    def get(self, path: str) -> requests.Response:
        return self.request("GET", path)


@dataclass
class MediaClient:
    """Calls the media-processing sandbox: POST JSON with Date, Content-MD5 and signature.

    Every part of the request can be overridden to build bad requests on purpose."""

    process_url: str
    account: Account

    @classmethod
    def of_sandbox(cls, sandbox: Any) -> MediaClient:
        return cls(sandbox.info["process_url"], Account.of_sandbox(sandbox))

    def post(self, endpoint: str, body: Any = None, *, raw: bytes | None = None,
             service: str | None = None, operator: str | None = None,
             password: str | None = None, date: str | None = None,
             content_md5: str | None = None, signed_md5: str | None = None,
             content_type: str = "application/json", method: str = "POST",
             authorization: str | None = None,
             dates: dict[str, str] | None = None) -> requests.Response:
        """`dates` replaces the `Date` header (signed over `date` still) with these headers."""
        data = raw if raw is not None else json.dumps(body).encode()
        uri = quote(f"/{service or self.account.bucket}/{endpoint}", safe="/")
        date = date or self.account.date()
        content_md5 = md5_hex(data) if content_md5 is None else content_md5
        signature = current_signature(method, uri, date, password or self.account.password,
                                      content_md5 if signed_md5 is None else signed_md5)
        headers = {**({"Date": date} if dates is None else dates), "Content-Type": content_type,
                   "Authorization": authorization if authorization is not None
                   else f"SVC {operator or self.account.operator}:{signature}"}
        if content_md5:
            headers["Content-MD5"] = content_md5
        return requests.request(method, self.process_url + uri, data=data, headers=headers,
                                timeout=60)


# --- one object for a test: the session's files, a sandbox, and both clients -----------------


def session_media(tmp_path_factory: Any) -> MediaSet:
    """The session's media set, in pytest's session temporary directory (made once)."""
    return make_media_set(Path(tmp_path_factory.getbasetemp()) / "media-fixtures")


class MediaLab:
    """A (reset) sandbox with the fixture files at hand: upload them, call the media API,
    read results back."""

    VIDEO = "/videos/pattern.mp4"
    HLS_FOLDER = "/hls/pattern"
    SHORT_HLS_FOLDER = "/hls/short"
    FMP4_HLS_FOLDER = "/hls/fmp4"
    BYTERANGE_HLS_FOLDER = "/hls/ranges"

    def __init__(self, sandbox: Any, media: MediaSet) -> None:
        self.sandbox = sandbox
        self.media = media
        self.storage = StorageClient.of_sandbox(sandbox)
        self.client = MediaClient.of_sandbox(sandbox)
        self.bucket = self.storage.account.bucket

    def upload_video(self, path: str = VIDEO) -> str:
        self.storage.put(self.media.mp4, path, "video/mp4")
        return path

    def upload_hls(self, folder: str = HLS_FOLDER) -> str:
        return self.storage.put_hls(self.media.hls, folder)

    def upload_short_hls(self, folder: str = SHORT_HLS_FOLDER) -> str:
        return self.storage.put_hls(self.media.short_hls, folder)

    def upload_fmp4_hls(self, folder: str = FMP4_HLS_FOLDER) -> str:
        return self.storage.put_hls(self.media.fmp4_hls, folder)

    def upload_byterange_hls(self, folder: str = BYTERANGE_HLS_FOLDER) -> str:
        return self.storage.put_hls(self.media.byterange_hls, folder)

    def upload_text(self, text: str, path: str) -> str:
        self.storage.put_bytes(text.encode(), path, "application/vnd.apple.mpegurl")
        return path

    def post(self, endpoint: str, body: Any = None, **overrides: Any) -> requests.Response:
        return self.client.post(endpoint, body, **overrides)

    def read(self, path: str) -> bytes:
        response = self.storage.get(path)
        if response.status_code != 200:
            raise AssertionError(f"GET {path}: {response.status_code} {response.text}")
        return response.content

    def read_text(self, path: str) -> str:
        return self.read(path).decode()
