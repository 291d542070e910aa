"""The provider's answers as readable tables: every field of the spec, missing ones empty,
segments from the time points."""

from __future__ import annotations

import pytest

from media.views.presenting import format_rows, segments, stream_tables


def rows_of(rows) -> dict[str, str]:
    return {row.key: row.value for row in rows}


def test_the_format_table_has_every_container_field():
    rows = rows_of(format_rows({"format": {"bitrate": 143257, "duration": 6.0,
                                           "format": "mov,mp4", "fullname": "QuickTime / MOV",
                                           "filesize": 107443.0}}))
    assert rows == {"format": "mov,mp4", "fullname": "QuickTime / MOV",
                    "duration": "6.000 s (00:00:06.000)", "bitrate": "143.3 kb/s",
                    "filesize": "104.9 KiB (107,443 bytes)"}


def test_missing_fields_are_empty_not_errors():
    assert set(rows_of(format_rows({})).values()) == {""}
    table = stream_tables({"streams": [{}]})[0]
    assert rows_of(table.rows)["codec"] == ""


def test_video_and_audio_streams_show_their_own_fields():
    video, audio = stream_tables({"streams": [
        {"index": 0, "type": "video", "video_width": 320, "video_height": 240,
         "video_fps": 25.0, "metadata": {"handler_name": "VideoHandler", "language": "und"}},
        {"index": 1, "type": "audio", "audio_channels": 2, "audio_samplerate": 44100},
    ]})
    assert video.title == "Stream 0" and video.kind == "video"
    assert rows_of(video.rows)["video_width"] == "320 × 240 pixels"
    assert "audio_channels" not in rows_of(video.rows)
    assert rows_of(audio.rows)["audio_samplerate"] == "44,100 Hz"
    assert "video_fps" not in rows_of(audio.rows)


def test_segments_run_from_point_to_point_and_the_last_to_the_end():
    found = segments({"duration": 6.5, "points": [0.0, 2.0, 4.0]})
    assert [(s.number, s.start, s.length) for s in found] == [
        (0, 0.0, 2.0), (1, 2.0, 2.0), (2, 4.0, pytest.approx(2.5))]
    assert found[2].end_clock == "00:00:06.500"


def test_a_playlist_without_points_has_no_segments():
    assert segments({"duration": 3.0, "points": []}) == []
