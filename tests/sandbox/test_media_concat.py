"""Concatenation: one playlist playing the inputs' segments in the submitted order, with a
discontinuity between inputs, referencing the stored segments from wherever it is saved."""

from __future__ import annotations

import posixpath
from io import BytesIO

import m3u8
import pytest
from PIL import Image

from tests.media_fixtures import MediaLab, colour_at, session_media

CONCAT = "m3u8er/concat"
PATTERN = f"{MediaLab.HLS_FOLDER}/index.m3u8"
SHORT = f"{MediaLab.SHORT_HLS_FOLDER}/index.m3u8"


@pytest.fixture
def bare_lab(sandbox, tmp_path_factory) -> MediaLab:
    """For requests refused before any file is read: nothing uploaded."""
    return MediaLab(sandbox, session_media(tmp_path_factory))


@pytest.fixture
def lab(bare_lab) -> MediaLab:
    bare_lab.upload_hls()
    bare_lab.upload_short_hls()
    return bare_lab


def written(lab: MediaLab, path: str) -> m3u8.M3U8:
    return m3u8.loads(lab.read_text(path))


def test_it_joins_the_segments_in_the_submitted_order(lab):
    response = lab.post(CONCAT, {"m3u8s": [PATTERN, SHORT], "save_as": "/joined/all.m3u8"})
    assert response.status_code == 200, response.text
    assert response.json() == {"status_code": 200, "message": "ok"}
    assert response.headers["X-Request-Id"]
    playlist = written(lab, "/joined/all.m3u8")
    assert [segment.uri for segment in playlist.segments] == [
        "../hls/pattern/seg0.ts", "../hls/pattern/seg1.ts", "../hls/pattern/seg2.ts",
        "../hls/short/part0.ts", "../hls/short/part1.ts",
    ]
    assert [segment.duration for segment in playlist.segments] == pytest.approx([2.0] * 5)
    assert playlist.is_endlist


def test_a_discontinuity_opens_each_input_after_the_first(lab):
    lab.post(CONCAT, {"m3u8s": [SHORT, PATTERN, SHORT], "save_as": "/joined/three.m3u8"})
    playlist = written(lab, "/joined/three.m3u8")
    flags = [segment.discontinuity for segment in playlist.segments]
    assert flags == [False, False, True, False, False, True, False]


def test_the_order_of_the_inputs_is_kept(lab):
    lab.post(CONCAT, {"m3u8s": [SHORT, PATTERN], "save_as": "/joined/reversed.m3u8"})
    uris = [segment.uri for segment in written(lab, "/joined/reversed.m3u8").segments]
    assert uris[0] == "../hls/short/part0.ts"
    assert uris[2] == "../hls/pattern/seg0.ts"


def test_every_segment_uri_resolves_to_a_stored_file(lab):
    lab.post(CONCAT, {"m3u8s": [PATTERN, SHORT], "save_as": "/deep/er/joined.m3u8"})
    for segment in written(lab, "/deep/er/joined.m3u8").segments:
        path = posixpath.normpath(posixpath.join("/deep/er", segment.uri))
        assert lab.storage.get(path).status_code == 200, path


def test_a_playlist_saved_beside_its_segments_references_them_by_name(lab):
    save_as = f"{MediaLab.HLS_FOLDER}/twice.m3u8"
    lab.post(CONCAT, {"m3u8s": [PATTERN, PATTERN], "save_as": save_as})
    uris = [segment.uri for segment in written(lab, save_as).segments]
    assert uris == ["seg0.ts", "seg1.ts", "seg2.ts"] * 2


def test_the_joined_playlist_has_the_sum_of_the_durations(lab):
    lab.post(CONCAT, {"m3u8s": [PATTERN, SHORT], "save_as": "/joined/all.m3u8"})
    meta = lab.post("m3u8er/get_meta", {"m3u8": "/joined/all.m3u8"}).json()["meta"]
    expected = lab.media.hls.duration + lab.media.short_hls.duration
    assert meta["duration"] == pytest.approx(expected)
    assert meta["points"] == pytest.approx([0, 2, 4, 6, 8])


def test_the_joined_playlist_plays_the_second_input_after_the_first(lab):
    lab.post(CONCAT, {"m3u8s": [PATTERN, SHORT], "save_as": "/joined/all.m3u8"})
    response = lab.post("snapshot", {"source": "/joined/all.m3u8", "point": "00:00:07",
                                     "save_as": "/joined/at7.png"})
    assert response.status_code == 200, response.text
    image = Image.open(BytesIO(lab.read("/joined/at7.png"))).convert("RGB")
    centre = image.getpixel((image.width // 2, image.height // 2))
    assert isinstance(centre, tuple)
    expected = colour_at(1)  # second 1 of the short video, which starts at 6 s
    assert all(abs(got - want) <= 40 for got, want in zip(centre, expected, strict=True))


@pytest.mark.parametrize(("body", "field"), [
    ({"save_as": "/j.m3u8"}, "m3u8s"),
    ({"m3u8s": PATTERN, "save_as": "/j.m3u8"}, "m3u8s"),
    ({"m3u8s": [], "save_as": "/j.m3u8"}, "m3u8s"),
    ({"m3u8s": [PATTERN, 7], "save_as": "/j.m3u8"}, "m3u8s[1]"),
    ({"m3u8s": [PATTERN, "hls/short/index.m3u8"], "save_as": "/j.m3u8"}, "m3u8s[1]"),
    ({"m3u8s": [PATTERN]}, "save_as"),
    ({"m3u8s": [PATTERN], "save_as": ""}, "save_as"),
    ({"m3u8s": [PATTERN], "save_as": "/j.m3u8", "m3u8": PATTERN}, "m3u8"),
    ({"m3u8s": [PATTERN] * 101, "save_as": "/j.m3u8"}, "m3u8s"),
])
def test_each_bad_field_is_a_400_naming_it(bare_lab, body, field):
    response = bare_lab.post(CONCAT, body)
    assert response.status_code == 400, response.text
    assert response.json()["message"].startswith(f"{field}:"), response.json()["message"]


def test_a_missing_input_is_a_404_naming_it(lab):
    response = lab.post(CONCAT, {"m3u8s": [PATTERN, "/hls/gone.m3u8"], "save_as": "/j.m3u8"})
    assert response.status_code == 404
    assert response.json()["message"] == "m3u8s[1]: /hls/gone.m3u8 does not exist"
    assert lab.storage.get("/j.m3u8").status_code == 404


def test_an_input_that_is_not_a_playlist_is_a_500(lab):
    lab.upload_video()
    response = lab.post(CONCAT, {"m3u8s": [PATTERN, MediaLab.VIDEO], "save_as": "/j.m3u8"})
    assert response.status_code == 500
    assert "not an M3U8 playlist" in response.json()["message"]


def test_a_master_playlist_is_a_400(lab):
    master = lab.upload_text("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nlow/index.m3u8\n",
                             "/hls/master.m3u8")
    response = lab.post(CONCAT, {"m3u8s": [master], "save_as": "/j.m3u8"})
    assert response.status_code == 400
    assert "master playlist" in response.json()["message"]


def test_saving_over_a_folder_is_a_400_on_save_as(lab):
    response = lab.post(CONCAT, {"m3u8s": [PATTERN], "save_as": "/hls"})
    assert response.status_code == 400
    assert response.json()["message"].startswith("save_as:")
