"""Small demo media made on the spot with PyAV: nothing is downloaded, everything is tiny.

- `make_video`: an MP4 (H.264 + AAC tone) whose picture changes colour every second and shows
  the time, so a snapshot visibly comes from the moment asked for.
- `make_playlist`: an HLS playlist of one-second MPEG-TS segments in the same style (video
  only), each segment encoded with its own encoder so that it starts with a keyframe, with
  time stamps running on across segments as HLS expects.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT, FPS = 160, 120, 10
SAMPLE_RATE = 22_050
TONE_HZ = 441  # divides the sample rate: each period is a whole number of samples
AUDIO_FRAME = 1024
PALETTE = ((214, 69, 65), (46, 160, 67), (47, 111, 222), (230, 180, 40), (150, 70, 190),
           (30, 150, 160), (90, 90, 90))


@dataclass(frozen=True)
class Playlist:
    playlist: Path
    segments: list[Path]
    seconds: int


def colour_of(second: int, offset: int = 0) -> tuple[int, int, int]:
    return PALETTE[(second + offset) % len(PALETTE)]


def picture(frame_number: int, offset: int, label: str) -> Image.Image:
    second = frame_number // FPS
    image = Image.new("RGB", (WIDTH, HEIGHT), colour_of(second, offset))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=20)
    draw.text((8, 8), label, fill=(255, 255, 255), font=font)
    draw.text((8, HEIGHT - 32), f"00:00:{second:02d}.{frame_number % FPS}", fill=(255, 255, 255),
              font=font)
    # A bar that sweeps across each second, so consecutive frames differ.
    x = int((frame_number % FPS) / FPS * WIDTH)
    draw.rectangle((x, HEIGHT // 2 - 4, x + WIDTH // FPS, HEIGHT // 2 + 4), fill=(255, 255, 255))
    return image


def _add_video_stream(container: av.container.OutputContainer) -> av.VideoStream:
    stream = container.add_stream("h264", rate=FPS)
    stream.width, stream.height, stream.pix_fmt = WIDTH, HEIGHT, "yuv420p"
    stream.options = {"preset": "ultrafast", "g": str(FPS), "keyint_min": str(FPS),
                      "sc_threshold": "0"}
    return stream


def _encode_frames(container: av.container.OutputContainer, stream: av.VideoStream,
                   first: int, count: int, offset: int, label: str) -> None:
    for number in range(first, first + count):
        frame = av.VideoFrame.from_image(picture(number, offset, label))
        frame.pts = number
        frame.time_base = Fraction(1, FPS)
        container.mux(stream.encode(frame))
    container.mux(stream.encode(None))


def _tone(seconds: int) -> list[av.AudioFrame]:
    period = SAMPLE_RATE // TONE_HZ
    samples = [int(0.2 * 32767 * math.sin(2 * math.pi * n / period)) for n in range(period)]
    pcm = b"".join(value.to_bytes(2, "little", signed=True) for value in samples)
    total = seconds * SAMPLE_RATE
    data = pcm * (total // period + 1)
    frames = []
    for start in range(0, total, AUDIO_FRAME):
        count = min(AUDIO_FRAME, total - start)
        frame = av.AudioFrame(format="s16", layout="mono", samples=count)
        frame.planes[0].update(data[start * 2:(start + count) * 2])
        frame.sample_rate = SAMPLE_RATE
        frame.pts = start
        frame.time_base = Fraction(1, SAMPLE_RATE)
        frames.append(frame)
    return frames


def make_video(path: Path, seconds: int = 3, label: str = "demo") -> Path:
    """An MP4 of `seconds` seconds: H.264 picture and an AAC tone."""
    with av.open(str(path), mode="w", format="mp4") as container:
        video = _add_video_stream(container)
        audio = container.add_stream("aac", rate=SAMPLE_RATE, layout="mono")
        for frame in _tone(seconds):
            container.mux(audio.encode(frame))
        container.mux(audio.encode(None))
        _encode_frames(container, video, 0, seconds * FPS, 0, label)
    return path


def make_playlist(folder: Path, seconds: int = 3, *, offset: int = 0,
                  label: str = "HLS") -> Playlist:
    """`index.m3u8` and `seg<N>.ts` (one second each) in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    segments = []
    for number in range(seconds):
        segment = folder / f"seg{number}.ts"
        with av.open(str(segment), mode="w", format="mpegts") as container:
            stream = _add_video_stream(container)
            _encode_frames(container, stream, number * FPS, FPS, offset, label)
        segments.append(segment)
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:1", "#EXT-X-MEDIA-SEQUENCE:0",
             "#EXT-X-PLAYLIST-TYPE:VOD"]
    for segment in segments:
        lines += ["#EXTINF:1.000000,", segment.name]
    lines.append("#EXT-X-ENDLIST")
    playlist = folder / "index.m3u8"
    playlist.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Playlist(playlist=playlist, segments=segments, seconds=seconds)
