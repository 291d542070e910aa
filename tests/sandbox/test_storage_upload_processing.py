"""`x-gmkerl-thumb` (a processing string, a version, or both) and theme-colour extraction at a
REST upload (cloud/image.md), with the answer's image headers."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from tests.sandbox.test_delivery_support import Edge
from tests.sandbox.test_storage_client import StorageClient

RED = (200, 30, 30)
BLUE = (20, 40, 220)


@pytest.fixture
def storage(sandbox):
    return StorageClient(sandbox)


def picture(width: int = 400, height: int = 200, image_format: str = "PNG") -> bytes:
    """Three quarters red, one quarter blue."""
    image = Image.new("RGB", (width, height), RED)
    ImageDraw.Draw(image).rectangle((0, 0, width // 4 - 1, height - 1), fill=BLUE)
    buffer = io.BytesIO()
    image.save(buffer, format=image_format)
    return buffer.getvalue()


def stored(storage, path: str) -> Image.Image:
    return Image.open(io.BytesIO(storage.get(path).content))


def refusal(response, code: int, msg: str) -> dict:
    assert response.status_code == code // 100000, response.text
    body = response.json()
    assert (body["code"], body["msg"]) == (code, msg), body
    assert body["detail"]
    return body


def test_the_pages_processing_string_is_applied_and_reported(storage):
    response = storage.put("/t/a.jpg", picture(image_format="JPEG"), headers={
        "x-gmkerl-thumb": "/fw/300/unsharp/true/quality/80/format/png"})
    assert response.status_code == 200, response.text
    assert (response.headers["x-svc-width"], response.headers["x-svc-height"]) == ("300", "150")
    assert response.headers["x-svc-file-type"] == "PNG"
    assert response.headers["x-svc-frames"] == "1"
    image = stored(storage, "/t/a.jpg")
    assert (image.format, image.size) == ("PNG", (300, 150))
    assert storage.head("/t/a.jpg").headers["Content-Type"] == "image/png"


def test_a_format_only_string_converts_the_image(storage):
    storage.put("/t/b.png", picture(), headers={"x-gmkerl-thumb": "/format/webp"})
    assert stored(storage, "/t/b.png").format == "WEBP"


def test_a_version_and_a_version_with_parameters(sandbox, storage):
    Edge(sandbox).configure(versions={"small": "/fw/100/format/webp"})
    response = storage.put("/t/v.png", picture(), headers={"x-gmkerl-thumb": "small"})
    assert (response.headers["x-svc-width"], response.headers["x-svc-file-type"]) == \
        ("100", "WEBP")
    mixed = storage.put("/t/w.png", picture(), headers={"x-gmkerl-thumb": "small/fw/50"})
    image = stored(storage, "/t/w.png")
    assert (mixed.headers["x-svc-width"], image.format, image.size) == ("50", "WEBP", (50, 25))


def test_the_legacy_version_header_uses_the_same_versions(sandbox, storage):
    Edge(sandbox).configure(versions={"small": "/fw/100"})
    response = storage.put("/t/legacy.png", picture(), headers={"x-gmkerl-thumbnail": "small"})
    assert response.headers["x-svc-width"] == "100"


def test_an_unknown_version_is_refused(storage):
    refusal(storage.put("/t/x.png", picture(), headers={"x-gmkerl-thumb": "nosuch"}),
            40300017, "no thumb setting found for bucket")
    assert storage.head("/t/x.png").status_code == 404


@pytest.mark.parametrize("value, named", [
    ("/fw/0", "fw"), ("/sparkle/true", "sparkle"), ("/fw", "fw"), ("", "empty"),
])
def test_a_bad_processing_string_is_refused_before_the_body_is_read(storage, value, named):
    body = refusal(storage.put("/t/bad.png", picture(), headers={"x-gmkerl-thumb": value}),
                   40011035, "invalid param in thumb")
    assert named in body["detail"]


def test_thumb_on_a_file_that_is_not_an_image_is_refused(storage):
    refusal(storage.put("/t/text.png", b"text", headers={"x-gmkerl-thumb": "/fw/10"}),
            40300018, "not an image")


def test_legacy_headers_and_a_processing_string_combine(storage):
    response = storage.put("/t/both.png", picture(), headers={
        "x-gmkerl-type": "fix_width", "x-gmkerl-value": "200", "x-gmkerl-thumb": "/fw/100"})
    assert response.headers["x-svc-width"] == "100"


def test_theme_colours_come_back_in_decimal_by_default(storage):
    response = storage.put("/t/colours.png", picture(), headers={
        "x-gmkerl-extract-color-count": "2"})
    assert response.status_code == 200
    colours = response.json()["colors"]
    assert [item["color"] for item in colours] == [(200 << 16) | (30 << 8) | 30,
                                                   (20 << 16) | (40 << 8) | 220]
    assert colours[0]["count"] > colours[1]["count"]
    assert storage.get("/t/colours.png").content == picture()  # extraction does not redraw


def test_theme_colours_in_hex(storage):
    response = storage.put("/t/hex.png", picture(), headers={"x-gmkerl-extract-format": "hex",
                                                             "x-gmkerl-extract-color-count": "2"})
    assert [item["color"] for item in response.json()["colors"]] == ["0xc81e1e", "0x1428dc"]


def test_many_theme_colours_count_the_exact_colours(storage):
    response = storage.put("/t/many.png", picture(), headers={
        "x-gmkerl-extract-color-count": "4096"})
    assert len(response.json()["colors"]) == 2


@pytest.mark.parametrize("headers", [
    {"x-gmkerl-extract-format": "rgb"},
    {"x-gmkerl-extract-color-count": "4097"},
])
def test_theme_colour_values_outside_the_pages_are_refused(storage, headers):
    response = storage.put("/t/c.png", picture(), headers=headers)
    assert response.status_code == 400
    assert next(iter(headers)) in response.text
