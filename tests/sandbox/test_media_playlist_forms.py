"""Playlists beyond plain segment files: byte ranges into one file, fragmented MP4 with an
initialisation section, encryption keys, query strings and external URLs. Concat and clip
carry each of them over with URIs rewritten for where the result is saved, and snapshot finds
the frame inside a byte range."""

from __future__ import annotations

import io

import m3u8
import pytest
from PIL import Image

from tests.media_fixtures import MediaLab, colour_at, session_media

PATTERN = f"{MediaLab.HLS_FOLDER}/index.m3u8"


@pytest.fixture
def lab(sandbox, tmp_path_factory) -> MediaLab:
    return MediaLab(sandbox, session_media(tmp_path_factory))


def snapshot_colour(lab: MediaLab, source: str, point: str) -> tuple[int, ...]:
    response = lab.post("snapshot", {"source": source, "point": point, "save_as": "/s/x.png"})
    assert response.status_code == 200, response.text
    image = Image.open(io.BytesIO(lab.read("/s/x.png"))).convert("RGB")
    centre = image.getpixel((image.width // 2, image.height // 2))
    assert isinstance(centre, tuple)
    return centre


def close(got: tuple[int, ...], want: tuple[int, ...]) -> bool:
    return all(abs(a - b) <= 40 for a, b in zip(got, want, strict=True))


@pytest.mark.parametrize("second", [1, 3, 5])
def test_a_snapshot_reads_the_byte_range_of_the_segment(lab, second):
    playlist = lab.upload_byterange_hls()
    assert close(snapshot_colour(lab, playlist, f"00:00:0{second}"), colour_at(second))


@pytest.mark.parametrize("second", [0, 3, 5])
def test_a_snapshot_of_fragmented_mp4_joins_the_init_section_and_the_fragment(lab, second):
    playlist = lab.upload_fmp4_hls()
    assert close(snapshot_colour(lab, playlist, f"00:00:0{second}"), colour_at(second))


def test_a_clip_writes_implicit_byte_range_offsets_out(lab):
    playlist = lab.upload_byterange_hls()
    sizes = [segment.stat().st_size for segment in lab.media.hls.segments]
    response = lab.post("m3u8er/clip", {"m3u8": playlist, "save_as": "/clips/r.m3u8",
                                        "include": [2, 6]})
    assert response.status_code == 200, response.text
    result = m3u8.loads(lab.read_text("/clips/r.m3u8"))
    assert [segment.byterange for segment in result.segments] == [
        f"{sizes[1]}@{sizes[0]}", f"{sizes[2]}@{sizes[0] + sizes[1]}"]
    assert [segment.uri for segment in result.segments] == ["../hls/ranges/all.ts"] * 2
    assert close(snapshot_colour(lab, "/clips/r.m3u8", "00:00:01"), colour_at(3))


def test_a_concat_carries_the_initialisation_section_with_a_rewritten_uri(lab):
    playlist = lab.upload_fmp4_hls()
    response = lab.post("m3u8er/concat", {"m3u8s": [playlist], "save_as": "/out/f.m3u8"})
    assert response.status_code == 200, response.text
    result = m3u8.loads(lab.read_text("/out/f.m3u8"))
    assert result.segments[0].init_section.uri == "../hls/fmp4/stream.mp4"
    assert result.segments[0].init_section.byterange.endswith("@0")
    assert close(snapshot_colour(lab, "/out/f.m3u8", "00:00:04"), colour_at(4))


def test_keys_are_carried_over_and_an_unencrypted_input_after_them_says_so(lab):
    lab.upload_hls()
    keyed = lab.upload_text(
        "#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"keys/k1.key\",IV=0x1\n"
        "#EXTINF:2,\nseg0.ts\n#EXT-X-ENDLIST\n", f"{MediaLab.HLS_FOLDER}/keyed.m3u8")
    response = lab.post("m3u8er/concat", {"m3u8s": [keyed, PATTERN], "save_as": "/out/k.m3u8"})
    assert response.status_code == 200, response.text
    result = m3u8.loads(lab.read_text("/out/k.m3u8"))
    first, second = result.segments[0], result.segments[1]
    assert (first.key.method, first.key.uri, first.key.iv) == (
        "AES-128", "../hls/pattern/keys/k1.key", "0x1")
    assert second.key.method == "NONE"
    assert second.discontinuity


def test_query_strings_and_external_urls_are_kept(lab):
    text = ("#EXTM3U\n#EXTINF:2,\nseg0.ts?token=abc\n#EXTINF:2,\n"
            "https://cdn.example.com/live/seg9.ts\n#EXTINF:2,\n/hls/pattern/seg2.ts\n"
            "#EXT-X-ENDLIST\n")
    source = lab.upload_text(text, f"{MediaLab.HLS_FOLDER}/mixed.m3u8")
    response = lab.post("m3u8er/clip", {"m3u8": source, "save_as": "/a/b/c.m3u8",
                                        "exclude": [0, 1], "index": True})
    assert response.status_code == 200, response.text
    result = m3u8.loads(lab.read_text("/a/b/c.m3u8"))
    assert [segment.uri for segment in result.segments] == ["../../hls/pattern/seg2.ts"]
    response = lab.post("m3u8er/concat", {"m3u8s": [source], "save_as": "/a/d.m3u8"})
    assert response.status_code == 200, response.text
    result = m3u8.loads(lab.read_text("/a/d.m3u8"))
    assert [segment.uri for segment in result.segments] == [
        "../hls/pattern/seg0.ts?token=abc", "https://cdn.example.com/live/seg9.ts",
        "../hls/pattern/seg2.ts"]


def test_names_are_decoded_to_find_segments_and_encoded_again_when_written(lab):
    lab.storage.put(lab.media.hls.segments[0], "/hls/with space/seg 0.ts")
    source = lab.upload_text("#EXTM3U\n#EXTINF:2,\nseg%200.ts\n#EXT-X-ENDLIST\n",
                             "/hls/with space/index.m3u8")
    assert close(snapshot_colour(lab, source, "00:00:01"), colour_at(1))
    assert lab.post("m3u8er/concat", {"m3u8s": [source], "save_as": "/o.m3u8"}).ok
    assert m3u8.loads(lab.read_text("/o.m3u8")).segments[0].uri == "hls/with%20space/seg%200.ts"


def test_a_snapshot_in_an_external_segment_is_a_404(lab):
    source = lab.upload_text("#EXTM3U\n#EXTINF:2,\nhttps://cdn.example.com/seg0.ts\n",
                             "/hls/external.m3u8")
    response = lab.post("snapshot", {"source": source, "point": "00:00:01",
                                     "save_as": "/s/x.png"})
    assert response.status_code == 404
    assert "external URL" in response.json()["message"]


def test_a_byte_range_beyond_the_file_is_a_500(lab):
    lab.upload_hls()
    source = lab.upload_text("#EXTM3U\n#EXTINF:2,\n#EXT-X-BYTERANGE:1000@99999999\nseg0.ts\n",
                             f"{MediaLab.HLS_FOLDER}/far.m3u8")
    response = lab.post("snapshot", {"source": source, "point": "00:00:01",
                                     "save_as": "/s/x.png"})
    assert response.status_code == 500
    assert "beyond the end of the file" in response.json()["message"]
