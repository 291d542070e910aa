"""Snapshot: the frame at a time point of an MP4 or of an M3U8 playlist, saved in the bucket as
jpg, png or webp at the requested (or the video's) size; every bad field a 400, a missing
source or segment a 404, an unreadable source a 500."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tests.media_fixtures import MediaLab, colour_at, session_media

SNAPSHOT = "snapshot"
TOLERANCE = 40  # H.264 and JPEG both shift solid colours a little


@pytest.fixture
def lab(sandbox, tmp_path_factory) -> MediaLab:
    lab = MediaLab(sandbox, session_media(tmp_path_factory))
    lab.upload_video()
    return lab


def stored_image(lab: MediaLab, path: str) -> Image.Image:
    image = Image.open(io.BytesIO(lab.read(path)))
    image.load()
    return image


def assert_colour(image: Image.Image, expected: tuple[int, int, int]) -> None:
    centre = image.convert("RGB").getpixel((image.width // 2, image.height // 2))
    assert isinstance(centre, tuple)
    assert all(abs(got - want) <= TOLERANCE for got, want in zip(centre, expected, strict=True)), \
        f"centre pixel {centre} is not close to {expected}"


def snapshot_body(**fields) -> dict:
    body = {"source": MediaLab.VIDEO, "save_as": "/snaps/frame.jpg", "point": "00:00:01",
            **fields}
    return {key: value for key, value in body.items() if value is not None}


def test_it_saves_a_jpg_of_the_frame_at_the_point_at_the_video_size(lab):
    response = lab.post(SNAPSHOT, snapshot_body(point="00:00:03"))
    assert response.status_code == 200, response.text
    answer = response.json()
    assert (answer["status_code"], answer["message"]) == (200, "ok")  # cloud/sync_video.md
    assert answer["content_type"] == "image/jpeg"
    assert answer["save_as"] == "/snaps/frame.jpg"
    assert response.headers["X-Request-Id"]
    data = lab.read("/snaps/frame.jpg")
    assert answer["content_length"] == len(data)
    image = stored_image(lab, "/snaps/frame.jpg")
    assert image.format == "JPEG"
    assert image.size == (lab.media.spec.width, lab.media.spec.height)
    assert_colour(image, colour_at(3))


@pytest.mark.parametrize("point", ["00:00:00", "00:00:02", "00:00:05"])
def test_the_frame_is_the_one_shown_at_the_point(lab, point):
    response = lab.post(SNAPSHOT, snapshot_body(point=point, save_as="/snaps/at.png"))
    assert response.status_code == 200, response.text
    assert_colour(stored_image(lab, "/snaps/at.png"), colour_at(int(point[-2:])))


def test_a_point_may_carry_a_fraction_of_a_second(lab):
    response = lab.post(SNAPSHOT, snapshot_body(point="00:00:04.960", save_as="/s/f.png"))
    assert response.status_code == 200, response.text
    assert_colour(stored_image(lab, "/s/f.png"), colour_at(4.96))


def test_it_resizes_to_the_requested_size(lab):
    response = lab.post(SNAPSHOT, snapshot_body(size="160x90"))
    assert response.status_code == 200, response.text
    assert stored_image(lab, "/snaps/frame.jpg").size == (160, 90)


@pytest.mark.parametrize(("save_as", "pillow_format", "content_type"), [
    ("/snaps/a.png", "PNG", "image/png"),
    ("/snaps/a.webp", "WEBP", "image/webp"),
    ("/snaps/a.jpeg", "JPEG", "image/jpeg"),
])
def test_the_format_defaults_to_the_suffix_of_save_as(lab, save_as, pillow_format,
                                                      content_type):
    response = lab.post(SNAPSHOT, snapshot_body(save_as=save_as))
    assert response.status_code == 200, response.text
    assert response.json()["content_type"] == content_type
    assert stored_image(lab, save_as).format == pillow_format


def test_an_explicit_format_wins_over_the_suffix(lab):
    response = lab.post(SNAPSHOT, snapshot_body(save_as="/snaps/thumb", format="webp"))
    assert response.status_code == 200, response.text
    assert response.json()["content_type"] == "image/webp"
    assert stored_image(lab, "/snaps/thumb").format == "WEBP"


def test_it_snapshots_a_playlist_at_a_point_inside_a_later_segment(lab):
    playlist = lab.upload_hls()
    for point, second in (("00:00:03", 3), ("00:00:05", 5), ("00:00:00", 0)):
        response = lab.post(SNAPSHOT, {"source": playlist, "save_as": "/snaps/hls.png",
                                       "point": point, "size": "64x48"})
        assert response.status_code == 200, response.text
        image = stored_image(lab, "/snaps/hls.png")
        assert image.size == (64, 48)
        assert_colour(image, colour_at(second))


@pytest.mark.parametrize(("fields", "field"), [
    ({"point": None}, "point"),
    ({"point": "3"}, "point"),
    ({"point": "00:00:3"}, "point"),
    ({"point": "00:61:00"}, "point"),
    ({"point": 3}, "point"),
    ({"size": "320"}, "size"),
    ({"size": "0x240"}, "size"),
    ({"size": "320x240x2"}, "size"),
    ({"size": "9000x10"}, "size"),
    ({"format": "gif"}, "format"),
    ({"save_as": "/snaps/frame.gif"}, "format"),
    ({"save_as": "/snaps/frame"}, "format"),
    ({"source": None}, "source"),
    ({"source": "videos/pattern.mp4"}, "source"),
    ({"source": "/videos/../pattern.mp4"}, "source"),
    ({"save_as": None}, "save_as"),
    ({"save_as": "/"}, "save_as"),
    ({"save_as": "/videos/pattern.mp4/x.jpg"}, "save_as"),
    ({"colour": "red"}, "colour"),
])
def test_each_bad_field_is_a_400_naming_it(lab, fields, field):
    """A field set to None is left out of the body."""
    response = lab.post(SNAPSHOT, snapshot_body(**fields))
    assert response.status_code == 400, response.text
    assert response.json()["status_code"] == 400
    assert response.json()["message"].startswith(f"{field}:"), response.json()["message"]


def test_a_point_after_the_end_of_the_video_is_a_400(lab):
    response = lab.post(SNAPSHOT, snapshot_body(point="00:00:06"))
    assert response.status_code == 400
    assert response.json()["message"].startswith("point:")


def test_a_point_after_the_end_of_a_playlist_is_a_400(lab):
    playlist = lab.upload_hls()
    response = lab.post(SNAPSHOT, snapshot_body(source=playlist, point="00:01:00"))
    assert response.status_code == 400
    assert "end of the playlist" in response.json()["message"]


def test_a_body_that_is_not_json_is_a_400(lab):
    response = lab.post(SNAPSHOT, raw=b"source=/videos/pattern.mp4")
    assert response.status_code == 400
    assert response.json()["message"].startswith("body:")


def test_a_body_that_is_not_declared_as_json_is_a_400(lab):
    response = lab.post(SNAPSHOT, snapshot_body(), content_type="text/plain")
    assert response.status_code == 400
    assert response.json()["message"].startswith("Content-Type:")


def test_a_missing_source_is_a_404(lab):
    response = lab.post(SNAPSHOT, snapshot_body(source="/videos/nothing.mp4"))
    assert response.status_code == 404
    assert response.json() == {"status_code": 404,
                               "message": "source: /videos/nothing.mp4 does not exist"}


def test_a_source_named_with_the_bucket_gets_a_hint(lab):
    response = lab.post(SNAPSHOT, snapshot_body(source=f"/{lab.bucket}{MediaLab.VIDEO}"))
    assert response.status_code == 404
    assert f"leave out /{lab.bucket}" in response.json()["message"]


def test_a_folder_as_source_is_a_400(lab):
    response = lab.post(SNAPSHOT, snapshot_body(source="/videos"))
    assert response.status_code == 400
    assert "is a folder" in response.json()["message"]


def test_a_missing_segment_of_the_playlist_is_a_404(lab):
    playlist = lab.upload_text(lab.media.hls.playlist.read_text(), "/lonely/index.m3u8")
    response = lab.post(SNAPSHOT, snapshot_body(source=playlist, point="00:00:03"))
    assert response.status_code == 404
    assert "segment 1 (/lonely/seg1.ts)" in response.json()["message"]


def test_a_corrupt_video_is_a_500(lab):
    lab.storage.put(lab.media.truncated_mp4, "/videos/broken.mp4")
    response = lab.post(SNAPSHOT, snapshot_body(source="/videos/broken.mp4"))
    assert response.status_code == 500
    assert response.json()["status_code"] == 500
    assert "could not be read" in response.json()["message"]


def test_a_file_without_video_is_a_400(lab):
    lab.storage.put(lab.media.audio, "/audio/tone.m4a")
    response = lab.post(SNAPSHOT, snapshot_body(source="/audio/tone.m4a"))
    assert response.status_code == 400
    assert "no video stream" in response.json()["message"]


def test_an_encrypted_segment_is_a_processing_failure(lab):
    lab.upload_hls()
    text = lab.media.hls.playlist.read_text().replace(
        "#EXT-X-MEDIA-SEQUENCE:0", '#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-KEY:METHOD=AES-128,URI="k"')
    playlist = lab.upload_text(text, f"{MediaLab.HLS_FOLDER}/locked.m3u8")
    response = lab.post(SNAPSHOT, snapshot_body(source=playlist))
    assert response.status_code == 500
    assert "encrypted" in response.json()["message"]


def test_nothing_is_saved_when_the_snapshot_fails(lab):
    lab.post(SNAPSHOT, snapshot_body(point="00:00:09"))
    assert lab.storage.get("/snaps/frame.jpg").status_code == 404
