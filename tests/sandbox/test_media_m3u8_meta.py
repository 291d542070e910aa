"""M3U8 information: the playlist's duration and the time at which each segment starts."""

from __future__ import annotations

import pytest

from tests.media_fixtures import MediaLab, session_media

GET_META = "m3u8er/get_meta"


@pytest.fixture
def lab(sandbox, tmp_path_factory) -> MediaLab:
    return MediaLab(sandbox, session_media(tmp_path_factory))


def test_it_answers_the_duration_and_the_segment_start_points(lab):
    playlist = lab.upload_hls()
    response = lab.post(GET_META, {"m3u8": playlist})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["status_code"] == 200
    assert answer["message"] == "ok"
    assert response.headers["X-Request-Id"]
    assert answer["meta"]["duration"] == pytest.approx(lab.media.hls.duration)
    assert answer["meta"]["duration"] == pytest.approx(lab.media.spec.seconds, abs=0.05)
    assert answer["meta"]["points"] == pytest.approx([0.0, 2.0, 4.0])


def test_uneven_segments_give_uneven_points(lab):
    text = ("#EXTM3U\n#EXT-X-TARGETDURATION:3\n#EXTINF:1.5,\na.ts\n#EXTINF:2.25,first\nb.ts\n"
            "#EXTINF:0.75,\nc.ts\n#EXT-X-ENDLIST\n")
    playlist = lab.upload_text(text, "/lists/uneven.m3u8")
    meta = lab.post(GET_META, {"m3u8": playlist}).json()["meta"]
    assert meta == {"duration": 4.5, "points": [0.0, 1.5, 3.75]}


def test_a_playlist_without_segments_lasts_zero_seconds(lab):
    playlist = lab.upload_text("#EXTM3U\n#EXT-X-ENDLIST\n", "/lists/empty.m3u8")
    meta = lab.post(GET_META, {"m3u8": playlist}).json()["meta"]
    assert meta == {"duration": 0.0, "points": []}


@pytest.mark.parametrize(("body", "field"), [
    ({}, "m3u8"),
    ({"m3u8": ["/a.m3u8"]}, "m3u8"),
    ({"m3u8": "a.m3u8"}, "m3u8"),
    ({"m3u8": "/a.m3u8", "source": "/a.m3u8"}, "source"),
])
def test_each_bad_field_is_a_400_naming_it(lab, body, field):
    response = lab.post(GET_META, body)
    assert response.status_code == 400, response.text
    assert response.json()["message"].startswith(f"{field}:")


def test_a_missing_playlist_is_a_404(lab):
    response = lab.post(GET_META, {"m3u8": "/lists/none.m3u8"})
    assert response.status_code == 404
    assert response.json() == {"status_code": 404,
                               "message": "m3u8: /lists/none.m3u8 does not exist"}


def test_a_file_that_is_not_a_playlist_is_a_500(lab):
    video = lab.upload_video()
    response = lab.post(GET_META, {"m3u8": video})
    assert response.status_code == 500
    assert "not an M3U8 playlist" in response.json()["message"]


def test_a_negative_duration_is_a_500(lab):
    playlist = lab.upload_text("#EXTM3U\n#EXTINF:-2,\na.ts\n", "/lists/negative.m3u8")
    response = lab.post(GET_META, {"m3u8": playlist})
    assert response.status_code == 500
    assert "no valid #EXTINF duration" in response.json()["message"]


def test_a_master_playlist_is_a_400(lab):
    master = lab.upload_text("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlow.m3u8\n",
                             "/lists/master.m3u8")
    response = lab.post(GET_META, {"m3u8": master})
    assert response.status_code == 400
    assert "master playlist" in response.json()["message"]
