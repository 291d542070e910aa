r"""MediaClient: exact requests, parsed answers and typed errors.

The signature below was computed in a shell, with D='Wed, 29 Oct 2014 02:26:58 GMT',
PW=$(printf '%s' password | md5sum) and B the JSON body:
    BM=$(printf '%s' "$B" | md5sum)
    printf '%s' "POST&/media-demo/m3u8er/concat&$D&$BM" \
        | openssl dgst -sha1 -hmac "$PW" -binary | base64
"""

import json
import pickle
from typing import Any

import pytest
import requests
import responses

from media.client import (
    AVFormat,
    MediaClient,
    MediaConnectionError,
    MediaError,
    MediaNotFound,
    MediaProtocolError,
    MediaRequestError,
    MediaServerError,
    MediaUnauthorized,
    encode_body,
    sign,
)

BASE = "http://process.test:8104"
NOW = 1414549618.0
DATE = "Wed, 29 Oct 2014 02:26:58 GMT"
CONCAT_BODY = b'{"m3u8s":["/a.m3u8","/b.m3u8"],"save_as":"/c.m3u8"}'
CONCAT_MD5 = "742ce251df6e570a6a480a8685adb100"  # printf '%s' "$B" | md5sum
CONCAT_AUTH = "SVC ops:abA8PJr1gBgk3HFb++ZMHF5SGKs="


@pytest.fixture
def mock():
    with responses.RequestsMock() as rsps:
        yield rsps


@pytest.fixture
def client():
    return MediaClient(BASE, "media-demo", "ops", "password", clock=lambda: NOW)


def url(endpoint):
    return f"{BASE}/media-demo/{endpoint}"


def ok(body, request_id="req-42"):
    return {"json": body, "headers": {"X-Request-Id": request_id}}


def sent_json(mock, index=0):
    return json.loads(mock.calls[index].request.body)


def test_sign_matches_the_shell_computed_value():
    assert sign("POST", "/media-demo/m3u8er/concat", DATE, "password", CONCAT_MD5) == (
        CONCAT_AUTH.removeprefix("SVC ops:")
    )


def test_encode_body_is_compact_utf8_json():
    assert encode_body({"m3u8s": ["/a.m3u8", "/b.m3u8"], "save_as": "/c.m3u8"}) == CONCAT_BODY
    assert encode_body({"source": "/视频.mp4"}) == '{"source":"/视频.mp4"}'.encode()


def test_concat_sends_a_signed_json_body_with_its_md5(mock, client):
    mock.post(url("m3u8er/concat"), **ok({"status_code": 200, "message": "ok"}))
    result = client.concat(["/a.m3u8", "/b.m3u8"], "/c.m3u8")
    request = mock.calls[0].request
    assert request.body == CONCAT_BODY
    assert request.headers["Content-Type"] == "application/json"
    assert request.headers["Content-MD5"] == CONCAT_MD5
    assert request.headers["Date"] == DATE
    assert request.headers["Authorization"] == CONCAT_AUTH
    assert (result.status_code, result.message, result.request_id) == (200, "ok", "req-42")


def test_clip_sends_the_span_and_index(mock, client):
    mock.post(url("m3u8er/clip"), **ok({"status_code": 200, "message": "ok"}))
    client.clip("/a.m3u8", "/b.m3u8", include=[10, 20.5])
    assert sent_json(mock) == {
        "m3u8": "/a.m3u8",
        "save_as": "/b.m3u8",
        "index": False,
        "include": [10, 20.5],
    }


def test_clip_by_segment_numbers_with_both_spans(mock, client):
    mock.post(url("m3u8er/clip"), **ok({"status_code": 200, "message": "ok"}))
    client.clip("/a.m3u8", "/b.m3u8", include=(0, 3), exclude=(1, 2), index=True)
    body = sent_json(mock)
    assert body["index"] is True
    assert (body["include"], body["exclude"]) == ([0, 3], [1, 2])


def test_snapshot_sends_options_and_parses_the_image(mock, client):
    mock.post(
        url("snapshot"),
        **ok(
            {
                "status_code": 200,
                "message": "ok",
                "content_type": "image/png",
                "content_length": 34512,
                "save_as": "/shots/a.png",
            }
        ),
    )
    result = client.snapshot("/v.mp4", "/shots/a.png", "00:01:30", size="640x360", format="png")
    assert sent_json(mock) == {
        "source": "/v.mp4",
        "save_as": "/shots/a.png",
        "point": "00:01:30",
        "size": "640x360",
        "format": "png",
    }
    assert (result.content_type, result.content_length, result.save_as) == (
        "image/png",
        34512,
        "/shots/a.png",
    )
    assert result.request_id == "req-42"


def test_snapshot_leaves_defaults_to_the_provider(mock, client):
    mock.post(
        url("snapshot"),
        **ok({"content_type": "image/jpeg", "content_length": 1, "save_as": "/a.jpg"}),
    )
    result = client.snapshot("/v.m3u8", "/a.jpg", "00:00:01")
    assert sent_json(mock) == {"source": "/v.m3u8", "save_as": "/a.jpg", "point": "00:00:01"}
    assert result.status_code == 200  # absent from the body: the HTTP 200 stands


def test_m3u8_meta_parses_duration_and_points(mock, client):
    mock.post(
        url("m3u8er/get_meta"),
        **ok(
            {
                "status_code": 200,
                "message": "ok",
                "meta": {"duration": 30.5, "points": [0, 10, 20.25, 30.5]},
            }
        ),
    )
    meta = client.m3u8_meta("/a.m3u8")
    assert sent_json(mock) == {"m3u8": "/a.m3u8"}
    assert meta.duration == 30.5
    assert meta.points == [0.0, 10.0, 20.25, 30.5]
    assert all(isinstance(point, float) for point in meta.points)


AV_ANSWER = {
    "format": {
        "bitrate": 1205959,
        "duration": 60.06,
        "format": "mov,mp4,m4a,3gp,3g2,mj2",
        "fullname": "QuickTime / MOV",
        "filesize": 9053854.0,
    },
    "streams": [
        {
            "index": 0,
            "type": "video",
            "bitrate": 1071097,
            "codec": "h264",
            "codec_desc": "H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10",
            "duration": 60.06,
            "video_fps": 29.97,
            "video_height": 720,
            "video_width": 1280,
            "metadata": {"handler_name": "VideoHandler", "language": "und"},
        },
        {
            "index": 1,
            "type": "audio",
            "bitrate": 128000,
            "codec": "aac",
            "codec_desc": "AAC (Advanced Audio Coding)",
            "duration": 60.0,
            "audio_channels": 2,
            "audio_samplerate": 44100,
            "metadata": {"handler_name": "SoundHandler", "language": "eng"},
        },
    ],
}


def test_av_meta_parses_format_and_every_stream_field(mock, client):
    mock.post(url("avmeta/get_meta"), **ok(AV_ANSWER, "req-av"))
    meta = client.av_meta("/v.mp4")
    assert sent_json(mock) == {"source": "/v.mp4"}
    assert meta.request_id == "req-av"
    assert meta.format == AVFormat(
        bitrate=1205959,
        duration=60.06,
        format="mov,mp4,m4a,3gp,3g2,mj2",
        fullname="QuickTime / MOV",
        filesize=9053854.0,
    )
    video, audio = meta.streams
    assert (video.index, video.type, video.codec, video.bitrate) == (0, "video", "h264", 1071097)
    assert video.codec_desc.startswith("H.264")
    assert (video.video_width, video.video_height, video.video_fps) == (1280, 720, 29.97)
    assert video.duration == 60.06
    assert (video.audio_channels, video.audio_samplerate) == (None, None)
    assert (video.handler_name, video.language) == ("VideoHandler", "und")
    assert (audio.type, audio.audio_channels, audio.audio_samplerate) == ("audio", 2, 44100)
    assert audio.video_width is None
    assert audio.language == "eng"


def test_av_meta_accepts_numbers_sent_as_text(mock, client):
    answer = {
        "format": {"bitrate": "1000", "duration": "1.5"},
        "streams": [{"index": "0", "video_width": "640.0"}],
    }
    mock.post(url("avmeta/get_meta"), **ok(answer))
    meta = client.av_meta("/v.mp4")
    assert (meta.format.bitrate, meta.format.duration) == (1000, 1.5)
    assert (meta.streams[0].index, meta.streams[0].video_width) == (0, 640)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ({"streams": []}, "no format"),
        ({"format": {}, "streams": {}}, "no streams"),
        ({"format": {"bitrate": "fast"}, "streams": []}, "format: field 'bitrate' is not a number"),
        ({"format": {}, "streams": [{"video_width": 640.5}]},
         "streams[0]: field 'video_width' is not a whole number"),
        ({"format": {}, "streams": [{"codec": 7}]}, "streams[0]: field 'codec' is int, not str"),
        ({"format": {}, "streams": ["video"]}, "streams[0] is not an object"),
        ({"format": {"duration": "inf"}, "streams": []}, "finite"),
    ],
)
def test_av_meta_refuses_malformed_answers_keeping_the_request_id(mock, client, answer, message):
    mock.post(url("avmeta/get_meta"), **ok(answer, "req-bad"))
    with pytest.raises(
        MediaProtocolError, match=message.replace("[", r"\[").replace("]", r"\]")
    ) as caught:
        client.av_meta("/v.mp4")
    assert caught.value.request_id == "req-bad"


@pytest.mark.parametrize(
    "answer",
    [
        {"status_code": 200, "message": "ok"},
        {"status_code": 200, "meta": {"points": []}},
        {"status_code": 200, "meta": {"duration": 1, "points": "0,1"}},
        {"status_code": 200, "meta": {"duration": 1, "points": [0, "x"]}},
    ],
)
def test_m3u8_meta_refuses_malformed_answers(mock, client, answer):
    mock.post(url("m3u8er/get_meta"), **ok(answer))
    with pytest.raises(MediaProtocolError):
        client.m3u8_meta("/a.m3u8")


def test_snapshot_refuses_an_answer_without_its_fields(mock, client):
    mock.post(url("snapshot"), **ok({"status_code": 200, "message": "ok"}))
    with pytest.raises(MediaProtocolError, match="content_type"):
        client.snapshot("/v.mp4", "/a.jpg", "00:00:01")


def test_a_success_that_is_not_json_is_a_protocol_error(mock, client):
    mock.post(url("m3u8er/concat"), body="<html>ok</html>", headers={"X-Request-Id": "r"})
    with pytest.raises(MediaProtocolError, match="not a JSON object"):
        client.concat(["/a.m3u8"], "/c.m3u8")


# --- errors ---


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, MediaRequestError),
        (401, MediaUnauthorized),
        (404, MediaNotFound),
        (500, MediaServerError),
        (503, MediaServerError),
        (418, MediaError),
    ],
)
def test_http_errors_become_typed_exceptions(mock, client, status, cls):
    mock.post(
        url("m3u8er/concat"),
        status=status,
        json={"status_code": status, "message": "request parameter error"},
        headers={"X-Request-Id": "req-err"},
    )
    with pytest.raises(cls) as caught:
        client.concat(["/a.m3u8"], "/c.m3u8")
    error = caught.value
    assert type(error) is cls
    assert (error.status, error.status_code, error.message, error.request_id) == (
        status,
        status,
        "request parameter error",
        "req-err",
    )


def test_a_401_is_also_a_request_error_as_the_spec_words_it():
    assert issubclass(MediaUnauthorized, MediaRequestError)


def test_an_error_status_code_inside_a_200_answer_is_raised(mock, client):
    mock.post(url("m3u8er/get_meta"), json={"status_code": 404, "message": "m3u8 not found"})
    with pytest.raises(MediaNotFound, match="m3u8 not found"):
        client.m3u8_meta("/missing.m3u8")


def test_an_error_page_that_is_not_json_keeps_the_status(mock, client):
    mock.post(url("snapshot"), status=502, body="Bad Gateway")
    with pytest.raises(MediaServerError) as caught:
        client.snapshot("/v.mp4", "/a.jpg", "00:00:01")
    assert (caught.value.status, caught.value.status_code) == (502, None)


def test_media_calls_are_never_repeated(mock, client):
    mock.post(url("m3u8er/concat"), status=503, json={"status_code": 503, "message": "busy"})
    with pytest.raises(MediaServerError):
        client.concat(["/a.m3u8"], "/c.m3u8")
    assert len(mock.calls) == 1


def test_network_failures_are_typed(mock, client):
    mock.post(url("m3u8er/concat"), body=requests.ConnectionError("refused"))
    with pytest.raises(MediaConnectionError, match="refused"):
        client.concat(["/a.m3u8"], "/c.m3u8")


def test_errors_survive_pickling(mock, client):
    mock.post(url("m3u8er/concat"), status=404, json={"status_code": 404, "message": "gone"})
    with pytest.raises(MediaNotFound) as caught:
        client.concat(["/a.m3u8"], "/c.m3u8")
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (type(copy), copy.status, copy.message) == (MediaNotFound, 404, "gone")


# --- construction ---


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"base_url": "process.test"}, "base_url"),
        ({"base_url": "http://process.test/x"}, "path"),
        ({"service": ""}, "service"),
        ({"operator": "a:b"}, "operator"),
        ({"date_header": "Expires"}, "date_header"),
        ({"timeout": -1}, "timeout"),
    ],
)
def test_constructor_rejects_bad_settings(kwargs, message):
    arguments: dict[str, Any] = {"base_url": BASE, "service": "media-demo", "operator": "ops",
                                 "password": "pw"}
    arguments.update(kwargs)
    with pytest.raises(ValueError, match=message):
        MediaClient(**arguments)


def test_repr_never_shows_the_password():
    assert "password" not in repr(MediaClient(BASE, "media-demo", "ops", "password"))
