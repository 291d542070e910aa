"""Audio/video information: the container and every stream field of the spec, read from the
stored file and compared with what the fixtures encoded."""

from __future__ import annotations

import pytest

from tests.media_fixtures import MediaLab, session_media

AVMETA = "avmeta/get_meta"
VIDEO_ONLY = {"video_fps", "video_height", "video_width"}
AUDIO_ONLY = {"audio_channels", "audio_samplerate"}
COMMON = {"index", "type", "bitrate", "codec", "codec_desc", "duration", "metadata"}


@pytest.fixture
def lab(sandbox, tmp_path_factory) -> MediaLab:
    return MediaLab(sandbox, session_media(tmp_path_factory))


def meta_of(lab: MediaLab, path: str) -> dict:
    response = lab.post(AVMETA, {"source": path})
    assert response.status_code == 200, response.text
    assert response.headers["X-Request-Id"]
    return response.json()


def test_the_container_of_an_mp4(lab):
    answer = meta_of(lab, lab.upload_video())
    assert answer["status_code"] == 200
    container = answer["format"]
    assert "mp4" in container["format"].split(",")
    assert container["fullname"] == "QuickTime / MOV"
    size = lab.media.mp4.stat().st_size
    assert container["filesize"] == float(size)
    assert container["duration"] == pytest.approx(lab.media.spec.seconds, abs=0.1)
    assert container["bitrate"] == pytest.approx(size * 8 / container["duration"], rel=0.05)


def test_the_video_stream_of_an_mp4(lab):
    spec = lab.media.spec
    video = meta_of(lab, lab.upload_video())["streams"][0]
    assert set(video) == COMMON | VIDEO_ONLY
    assert video["index"] == 0
    assert video["type"] == "video"
    assert video["codec"] == "h264"
    assert "H.264" in video["codec_desc"]
    assert (video["video_width"], video["video_height"]) == (spec.width, spec.height)
    assert video["video_fps"] == pytest.approx(spec.fps)
    assert video["duration"] == pytest.approx(spec.seconds, abs=0.05)
    assert video["bitrate"] > 0
    assert video["metadata"] == {"handler_name": "VideoHandler", "language": "und"}


def test_the_audio_stream_of_an_mp4(lab):
    spec = lab.media.spec
    audio = meta_of(lab, lab.upload_video())["streams"][1]
    assert set(audio) == COMMON | AUDIO_ONLY
    assert audio["index"] == 1
    assert audio["type"] == "audio"
    assert audio["codec"] == "aac"
    assert "AAC" in audio["codec_desc"]
    assert audio["audio_channels"] == spec.channels
    assert audio["audio_samplerate"] == spec.sample_rate
    assert audio["duration"] == pytest.approx(spec.seconds, abs=0.1)
    assert audio["bitrate"] > 0
    assert audio["metadata"] == {"handler_name": "SoundHandler", "language": "und"}


def test_a_transport_stream_segment(lab):
    lab.upload_hls()
    answer = meta_of(lab, f"{MediaLab.HLS_FOLDER}/seg1.ts")
    assert answer["format"]["format"] == "mpegts"
    assert answer["format"]["duration"] == pytest.approx(lab.media.hls.durations[1], abs=0.1)
    types = [stream["type"] for stream in answer["streams"]]
    assert types == ["video", "audio"]
    video = answer["streams"][0]
    assert (video["video_width"], video["video_height"]) == (320, 240)
    assert video["metadata"] == {"handler_name": "", "language": ""}


def test_an_audio_file_has_one_audio_stream(lab):
    lab.storage.put(lab.media.audio, "/audio/tone.m4a")
    streams = meta_of(lab, "/audio/tone.m4a")["streams"]
    assert [stream["type"] for stream in streams] == ["audio"]
    assert streams[0]["duration"] == pytest.approx(3, abs=0.1)


@pytest.mark.parametrize(("body", "field"), [
    ({}, "source"),
    ({"source": 5}, "source"),
    ({"source": ""}, "source"),
    ({"source": "/videos/pattern.mp4", "m3u8": "/x"}, "m3u8"),
])
def test_each_bad_field_is_a_400_naming_it(lab, body, field):
    response = lab.post(AVMETA, body)
    assert response.status_code == 400, response.text
    assert response.json()["message"].startswith(f"{field}:")


def test_a_playlist_is_refused_with_a_pointer_to_m3u8_meta(lab):
    playlist = lab.upload_hls()
    response = lab.post(AVMETA, {"source": playlist})
    assert response.status_code == 400
    assert "m3u8er/get_meta" in response.json()["message"]


def test_a_missing_source_is_a_404(lab):
    response = lab.post(AVMETA, {"source": "/videos/none.mp4"})
    assert response.status_code == 404
    assert response.json()["message"] == "source: /videos/none.mp4 does not exist"


@pytest.mark.parametrize("content", ["truncated", "garbage"])
def test_an_unreadable_file_is_a_500(lab, content):
    data = lab.media.truncated_mp4.read_bytes() if content == "truncated" else b"\x00junk" * 99
    lab.storage.put_bytes(data, "/videos/broken.mp4")
    response = lab.post(AVMETA, {"source": "/videos/broken.mp4"})
    assert response.status_code == 500
    assert response.json()["status_code"] == 500
    assert "could not be read as audio or video" in response.json()["message"]
