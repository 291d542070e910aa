"""Reading a media file's container and streams with PyAV, in the fields of the spec.

Numbers the container does not state are 0 (bit rates of MPEG-TS video streams, for example);
a stream's duration falls back to the container's when the stream has none. `format.format`
and `fullname` are FFmpeg's demuxer names (`mov,mp4,m4a,3gp,3g2,mj2`, `QuickTime / MOV`), as
ffprobe reports them. Video fields appear on video streams only, audio fields on audio streams.
"""

from __future__ import annotations

from pathlib import Path

import av

from sandbox.core.json_types import JSONObject
from sandbox.media.frames import open_container

DECIMALS = 6


def describe(path: Path, filesize: int, *, field: str, shown_as: str) -> JSONObject:
    with open_container(path, field, shown_as) as container:
        duration = container.duration / av.time_base if container.duration is not None else 0.0
        bitrate = container.bit_rate or (int(filesize * 8 / duration) if duration else 0)
        return {
            "format": {
                "bitrate": int(bitrate),
                "duration": round(duration, DECIMALS),
                "format": container.format.name,
                "fullname": container.format.long_name,
                "filesize": float(filesize),
            },
            "streams": [stream_fields(stream, duration) for stream in container.streams],
        }


def stream_fields(stream: av.stream.Stream, container_duration: float) -> JSONObject:
    context = stream.codec_context
    codec = context.codec if context is not None else None
    duration = container_duration
    if stream.duration is not None and stream.time_base is not None:
        duration = float(stream.duration * stream.time_base)
    fields: JSONObject = {
        "index": stream.index,
        "type": stream.type,
        # PyAV's Stream hands unknown attributes to its codec context; its stubs omit that.
        "bitrate": int(stream.bit_rate  # type: ignore[attr-defined]
                       or (context.bit_rate if context is not None else 0) or 0),
        "codec": context.name if context is not None else "",
        "codec_desc": codec.long_name if codec is not None else "",
        "duration": round(duration, DECIMALS),
    }
    if isinstance(stream, av.VideoStream):
        rate = stream.average_rate or stream.guessed_rate or stream.base_rate
        fields.update({"video_fps": round(float(rate), 3) if rate else 0.0,
                       "video_height": int(stream.codec_context.height),
                       "video_width": int(stream.codec_context.width)})
    elif isinstance(stream, av.AudioStream):
        fields.update({"audio_channels": int(stream.codec_context.channels),
                       "audio_samplerate": int(stream.codec_context.sample_rate)})
    fields["metadata"] = {"handler_name": stream.metadata.get("handler_name", ""),
                          "language": stream.metadata.get("language", "")}
    return fields
