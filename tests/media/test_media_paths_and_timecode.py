"""Pure rules of the media pages: storage paths checked and classified, suggested output
names, time points read and written."""

from __future__ import annotations

import pytest

from media import paths
from media.timecode import BadTimePoint, clock, normalise_point, point_of, point_seconds


@pytest.mark.parametrize(("value", "expected"), [
    ("/a.mp4", "/a.mp4"), ("  /v/视频 1.mp4 ", "/v/视频 1.mp4"), ("/a/b/c.m3u8", "/a/b/c.m3u8"),
])
def test_good_paths_are_kept(value, expected):
    assert paths.check_path(value) == expected


@pytest.mark.parametrize(("value", "problem"), [
    ("", "required"), ("   ", "required"), ("a.mp4", "not_absolute"), ("/a/", "folder"),
    ("/", "folder"), ("/a//b.mp4", "empty_segment"), ("/a/../b.mp4", "dots"),
    ("/./b.mp4", "dots"), ("/a\nb.mp4", "control"), ("/a\x7fb", "control"),
    ("/" + "x" * 1024, "too_long"),
])
def test_bad_paths_are_named(value, problem):
    with pytest.raises(paths.PathProblem) as caught:
        paths.check_path(value)
    assert str(caught.value) == problem


def test_suggested_names_sit_beside_the_source():
    assert paths.suggested_snapshot_path("/v/a.b.mp4", "01:02:03", "png") == \
        "/v/a.b_01-02-03.png"
    assert paths.suggested_snapshot_path("/top.mp4") == "/top_00-00-00.jpg"
    assert paths.suggested_playlist_path("/h/x/index.m3u8", "clip") == "/h/x/index_clip.m3u8"


@pytest.mark.parametrize(("text", "expected"), [
    ("00:00:00", "00:00:00"), ("0:01:05", "00:01:05"), (" 12:59:59 ", "12:59:59"),
    ("99:00:00", "99:00:00"),
])
def test_points_are_normalised(text, expected):
    assert normalise_point(text) == expected


@pytest.mark.parametrize("text", ["", "5", "00:05", "00:60:00", "00:00:60", "100:00:00",
                                  "00:00:01.5", "aa:bb:cc", "-1:00:00"])
def test_bad_points_are_refused(text):
    with pytest.raises(BadTimePoint):
        normalise_point(text)


def test_points_and_seconds_convert_both_ways():
    assert point_seconds("01:02:03") == 3723
    assert point_of(3723.9) == "01:02:03"
    assert clock(65.25) == "00:01:05.250"
    assert clock(None) == "" and clock(float("nan")) == ""
