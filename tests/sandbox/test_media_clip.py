"""Clipping: keep (`include`) or drop (`exclude`) spans of a playlist, in seconds or by segment
number (`index`), `include` winning when both are given. Segments are never cut: a segment is
kept whenever part of it is kept, so a span cutting a segment keeps that whole segment for
include and leaves it in for exclude. Where kept segments are not consecutive, the joint is a
discontinuity. The fixture playlist has three 2-second segments: [0,2) [2,4) [4,6)."""

from __future__ import annotations

import m3u8
import pytest

from tests.media_fixtures import MediaLab, session_media

CLIP = "m3u8er/clip"
SOURCE = f"{MediaLab.HLS_FOLDER}/index.m3u8"
SAVE_AS = f"{MediaLab.HLS_FOLDER}/clip.m3u8"


@pytest.fixture
def bare_lab(sandbox, tmp_path_factory) -> MediaLab:
    """For requests refused before any file is read: nothing uploaded."""
    return MediaLab(sandbox, session_media(tmp_path_factory))


@pytest.fixture
def lab(bare_lab) -> MediaLab:
    bare_lab.upload_hls()
    return bare_lab


def clip(lab: MediaLab, **fields) -> m3u8.M3U8:
    response = lab.post(CLIP, {"m3u8": SOURCE, "save_as": SAVE_AS, **fields})
    assert response.status_code == 200, response.text
    assert response.json() == {"status_code": 200, "message": "ok"}
    return m3u8.loads(lab.read_text(SAVE_AS))


def uris(playlist: m3u8.M3U8) -> list[str]:
    return [segment.uri for segment in playlist.segments]


def joints(playlist: m3u8.M3U8) -> list[bool]:
    return [segment.discontinuity for segment in playlist.segments]


def duration_of(lab: MediaLab, path: str) -> float:
    response = lab.post("m3u8er/get_meta", {"m3u8": path})
    return response.json()["meta"]["duration"]


def test_include_keeps_the_segments_of_the_span(lab):
    playlist = clip(lab, include=[2, 4])
    assert uris(playlist) == ["seg1.ts"]
    assert duration_of(lab, SAVE_AS) == pytest.approx(2.0)


def test_an_include_span_that_cuts_segments_keeps_them_whole(lab):
    playlist = clip(lab, include=[1, 3])
    assert uris(playlist) == ["seg0.ts", "seg1.ts"]
    assert duration_of(lab, SAVE_AS) == pytest.approx(4.0)


def test_exclude_drops_the_span_and_keeps_what_is_before_and_after(lab):
    playlist = clip(lab, exclude=[2, 4])
    assert uris(playlist) == ["seg0.ts", "seg2.ts"]
    assert joints(playlist) == [False, True]
    assert duration_of(lab, SAVE_AS) == pytest.approx(4.0)


def test_an_exclude_span_that_cuts_segments_leaves_them_in(lab):
    playlist = clip(lab, exclude=[1, 5])
    assert uris(playlist) == ["seg0.ts", "seg2.ts"]


def test_excluding_the_start_needs_no_discontinuity(lab):
    playlist = clip(lab, exclude=[0, 4])
    assert uris(playlist) == ["seg2.ts"]
    assert joints(playlist) == [False]


def test_several_include_spans_keep_each_part_with_a_joint_between(lab):
    playlist = clip(lab, include=[[0, 1], [5, 6]])
    assert uris(playlist) == ["seg0.ts", "seg2.ts"]
    assert joints(playlist) == [False, True]


def test_adjacent_exclude_spans_act_as_one(lab):
    playlist = clip(lab, exclude=[[1, 3], [3, 4.5]])
    assert uris(playlist) == ["seg0.ts", "seg2.ts"]  # seg1 lies inside the union [1, 4.5]


def test_index_spans_are_segment_numbers_from_zero_both_ends_included(lab):
    playlist = clip(lab, include=[1, 2], index=True)
    assert uris(playlist) == ["seg1.ts", "seg2.ts"]
    assert duration_of(lab, SAVE_AS) == pytest.approx(4.0)


def test_index_exclude_drops_the_numbered_segments(lab):
    playlist = clip(lab, exclude=[1, 1], index=True)
    assert uris(playlist) == ["seg0.ts", "seg2.ts"]
    assert joints(playlist) == [False, True]


def test_include_wins_when_both_are_given(lab):
    playlist = clip(lab, include=[0, 2], exclude=[0, 6])
    assert uris(playlist) == ["seg0.ts"]


def test_an_ignored_exclude_is_not_even_read(lab):
    assert uris(clip(lab, include=[0, 2], exclude="anything")) == ["seg0.ts"]


def test_a_clip_saved_elsewhere_references_the_source_segments(lab):
    response = lab.post(CLIP, {"m3u8": SOURCE, "save_as": "/clips/c.m3u8", "include": [4, 6]})
    assert response.status_code == 200, response.text
    playlist = m3u8.loads(lab.read_text("/clips/c.m3u8"))
    assert uris(playlist) == ["../hls/pattern/seg2.ts"]


def test_a_clip_can_replace_its_source(lab):
    response = lab.post(CLIP, {"m3u8": SOURCE, "save_as": SOURCE, "exclude": [0, 2]})
    assert response.status_code == 200, response.text
    assert duration_of(lab, SOURCE) == pytest.approx(4.0)


def refused(lab: MediaLab, fields: dict, field: str) -> None:
    """A field set to None is left out of the body."""
    body = {"m3u8": SOURCE, "save_as": SAVE_AS, **fields}
    body = {key: value for key, value in body.items() if value is not None}
    response = lab.post(CLIP, body)
    assert response.status_code == 400, response.text
    assert response.json()["message"].startswith(f"{field}:"), response.json()["message"]
    assert lab.storage.get(SAVE_AS).status_code == 404


@pytest.mark.parametrize(("fields", "field"), [
    ({}, "include"),
    ({"include": []}, "include"),
    ({"include": "0-2"}, "include"),
    ({"include": [3]}, "include"),
    ({"include": [1, 2, 3]}, "include"),
    ({"include": [4, 2]}, "include"),
    ({"include": [2, 2]}, "include"),
    ({"include": [-1, 2]}, "include"),
    ({"include": ["0", 2]}, "include"),
    ({"include": [True, 2]}, "include"),
    ({"include": [[0, 2], [3]]}, "include[1]"),
    ({"include": [0.5, 1], "index": True}, "include"),
    ({"include": [2, 1], "index": True}, "include"),
    ({"include": [0, 2], "index": "yes"}, "index"),
    ({"exclude": [5, "x"]}, "exclude"),
    ({"exclude": [0, 2], "index": True, "m3u8": None}, "m3u8"),
    ({"include": [0, 2], "save_as": None}, "save_as"),
    ({"include": [0, 2], "save_as": "clip.m3u8"}, "save_as"),
    ({"include": [0, 2], "includes": [0, 2]}, "includes"),
])
def test_each_malformed_field_is_a_400_naming_it(bare_lab, fields, field):
    refused(bare_lab, fields, field)


@pytest.mark.parametrize(("fields", "field"), [
    ({"include": [10, 20]}, "include"),
    ({"include": [6, 8]}, "include"),
    ({"include": [3, 5], "index": True}, "include"),
    ({"exclude": [0, 6]}, "exclude"),
    ({"exclude": [[0, 3], [3, 6]]}, "exclude"),
])
def test_spans_past_the_end_or_keeping_nothing_are_a_400(lab, fields, field):
    refused(lab, fields, field)


def test_a_missing_playlist_is_a_404(lab):
    response = lab.post(CLIP, {"m3u8": "/hls/none.m3u8", "save_as": SAVE_AS, "include": [0, 2]})
    assert response.status_code == 404
    assert response.json()["message"] == "m3u8: /hls/none.m3u8 does not exist"


def test_a_playlist_that_cannot_be_parsed_is_a_500(lab):
    broken = lab.upload_text("#EXTM3U\n#EXTINF:two seconds,\nseg0.ts\n", "/hls/broken.m3u8")
    response = lab.post(CLIP, {"m3u8": broken, "save_as": SAVE_AS, "include": [0, 2]})
    assert response.status_code == 500
    assert response.json()["status_code"] == 500
    assert response.json()["message"].startswith("m3u8: /hls/broken.m3u8 could not be read")
