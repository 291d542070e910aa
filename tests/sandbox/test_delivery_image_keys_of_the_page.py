"""The keys of cloud/image.md beyond content-delivery.md's table, at the sandbox's edge: each
result is opened with Pillow and its size, pixels or format checked; the page's own examples
give the image they say."""

from __future__ import annotations

import io
import json
import zlib

import pytest
from PIL import Image, ImageCms

from tests.sandbox.test_delivery_support import (
    Edge,
    Storage,
    assert_refused,
    image_bytes,
    opened,
)

RED, GREEN, BLUE, WHITE = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)


def quarters() -> bytes:
    """400x200: red top-left, green top-right, blue bottom-left, white bottom-right."""
    image = Image.new("RGB", (400, 200))
    for box, colour in (((0, 0, 200, 100), RED), ((200, 0, 400, 100), GREEN),
                        ((0, 100, 200, 200), BLUE), ((200, 100, 400, 200), WHITE)):
        image.paste(colour, box)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.fixture
def edge(sandbox):
    storage = Storage(sandbox)
    storage.put("/img/photo.png", image_bytes(400, 200))
    storage.put("/img/photo.jpg", image_bytes(600, 400, "JPEG"))
    storage.put("/img/quarters.png", quarters())
    storage.put("/img/note.txt", b"not an image")
    return Edge(sandbox)


@pytest.mark.parametrize(("params", "size"), [
    ("/fwfh2/100x100", (200, 100)),  # covers 100x100
    ("/fwfh2/1000x1000", (400, 200)),  # never enlarged without force
    ("/fwfh2/1000x1000/force/true", (2000, 1000)),
    ("/both/120x90/force/true", (120, 90)),
    ("/wscale/50", (200, 200)),
    ("/hscale/200", (400, 400)),
    ("/fxfn/100x100", (100, 50)),
    ("/fxfn2/100x100", (200, 100)),
    ("/fp/20000", (200, 100)),
    ("/fp/19999", (199, 99)),
    ("/fp/25000000", (400, 200)),  # never enlarged without force
    ("/fw/200/clip/100x50a10a10", (100, 50)),
    ("/fw/200/clip/0x0a50a20", (150, 80)),  # 0x0: up to the edge
    ("/crop/0x0s50a0", (300, 200)),  # 0: the side less the offset
    ("/rotate/360", (400, 200)),
    ("/canvas/600x400", (600, 400)),
    ("/roundrect/20", (400, 200)),
])
def test_each_key_of_the_page_gives_the_right_size(edge: Edge, params: str,
                                                   size: tuple[int, int]) -> None:
    assert opened(edge.get(f"/img/photo.png!{params}")).size == size


def test_any_angle_turns_the_image_and_holds_it_whole(edge: Edge) -> None:
    image = opened(edge.get("/img/photo.png!/rotate/45"))
    assert abs(image.width - 425) <= 1 and abs(image.height - 425) <= 1
    corner = image.convert("RGBA").getpixel((2, 2))
    assert isinstance(corner, tuple) and corner[3] == 0  # a new corner, transparent
    assert image.convert("RGB").getpixel((212, 212)) == (200, 30, 30)


@pytest.mark.parametrize(("params", "expected"), [
    ("/crop/100x50a0a0/gravity/southeast", WHITE),
    ("/crop/100x50a0a0/gravity/northeast", GREEN),
    ("/crop/100x50a0a0/gravity/southwest", BLUE),
    ("/crop/100x50a0a0", RED),  # northwest, the default
    ("/crop/100x50s250a0/gravity/northeast", RED),  # s: 250 towards west
    ("/fw/200/clip/50x50a0a0/gravity/southeast", WHITE),
])
def test_gravity_places_the_crop_or_clip_box(edge: Edge, params: str,
                                             expected: tuple[int, int, int]) -> None:
    image = opened(edge.get(f"/img/quarters.png!{params}")).convert("RGB")
    assert image.getpixel((image.width // 2, image.height // 2)) == expected


@pytest.mark.parametrize(("params", "top_left"), [
    ("/flip/left,right", GREEN), ("/flip/top,down", BLUE), ("/rotate/90", BLUE),
])
def test_flip_mirrors_the_image(edge: Edge, params: str, top_left: tuple[int, int, int]) -> None:
    image = opened(edge.get(f"/img/quarters.png!{params}")).convert("RGB")
    assert image.getpixel((5, 5)) == top_left


def test_roundrect_makes_the_corners_transparent(edge: Edge) -> None:
    image = opened(edge.get("/img/photo.png!/roundrect/40")).convert("RGBA")
    corner = image.getpixel((1, 1))
    assert isinstance(corner, tuple) and corner[3] == 0
    assert image.getpixel((200, 100)) == (200, 30, 30, 255)


def test_a_canvas_without_offsets_centres_the_image(edge: Edge) -> None:
    image = opened(edge.get("/img/photo.png!/canvas/600x400/cvscolor/0000FF00")).convert("RGB")
    assert image.getpixel((99, 99)) == BLUE
    assert image.getpixel((101, 101)) == (200, 30, 30)


def test_the_gradient_blends_from_its_start_to_its_stop_colour(edge: Edge) -> None:
    image = opened(edge.get("/img/photo.png!/gdori/top,down/gdpos/50,150"
                            "/gdstartcolor/FF000000/gdstopcolor/0000FF00")).convert("RGB")
    assert image.getpixel((10, 10)) == RED  # before the start: the start colour
    assert image.getpixel((10, 190)) == BLUE  # beyond the end: the end colour
    middle = image.getpixel((10, 100))
    assert isinstance(middle, tuple) and 100 < middle[0] < 160 and 100 < middle[2] < 160


def test_a_transparent_gradient_leaves_the_image_as_it_is(edge: Edge) -> None:
    image = opened(edge.get("/img/photo.png!/gdori/left,right"
                            "/gdstartcolor/000000FF/gdstopcolor/FFFFFFFF")).convert("RGB")
    assert image.getpixel((390, 100)) == (200, 30, 30)


@pytest.mark.parametrize(("fmt", "expected"), [("hex", "0xff0000"), ("dec", 0xFF0000)])
def test_excolor_answers_the_theme_colours_as_json(edge: Edge, fmt: str, expected: object) -> None:
    response = edge.get(f"/img/quarters.png!/excolor/4/exformat/{fmt}")
    assert response.status_code == 200 and response.headers["Content-Type"] == "application/json"
    colours = json.loads(response.content)["colors"]
    assert len(colours) == 4 and expected in [item["color"] for item in colours]
    assert sum(item["count"] for item in colours) == 256 * 128  # the sample of 256 a side


def test_lossless_webp_keeps_every_pixel(edge: Edge) -> None:
    image = opened(edge.get("/img/quarters.png!/format/webp/lossless/true"))
    assert image.format == "WEBP"
    assert image.convert("RGB").tobytes() == Image.open(io.BytesIO(quarters())).tobytes()


def test_quality_sets_the_compression(edge: Edge) -> None:
    low = edge.get("/img/photo.jpg!/quality/5/gaussblur/0x1")
    high = edge.get("/img/photo.jpg!/quality/99/gaussblur/0x1")
    assert len(low.content) < len(high.content)


def test_exif_is_dropped_unless_exifswitch_and_strip_drops_it_again(sandbox, edge: Edge) -> None:
    exif = Image.Exif()
    exif[0x010F] = "Maker"  # Make
    Storage(sandbox).put("/img/exif.jpg", image_bytes(100, 50, "JPEG", exif=exif.tobytes()))
    assert not opened(edge.get("/img/exif.jpg!/fw/50")).getexif()
    assert opened(edge.get("/img/exif.jpg!/fw/50/exifswitch/true")).getexif()[0x010F] == "Maker"
    assert not opened(edge.get("/img/exif.jpg!/fw/50/exifswitch/true/strip/true")).getexif()


def test_the_icc_profile_is_kept_unless_noicc_or_strip(sandbox, edge: Edge) -> None:
    profile = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    Storage(sandbox).put("/img/icc.png", image_bytes(100, 50, icc_profile=profile))
    assert opened(edge.get("/img/icc.png!/fw/50")).info.get("icc_profile") == profile
    assert not opened(edge.get("/img/icc.png!/fw/50/noicc/true")).info.get("icc_profile")
    assert not opened(edge.get("/img/icc.png!/fw/50/strip/true")).info.get("icc_profile")


def test_ignore_error_answers_the_original_naming_the_error(edge: Edge) -> None:
    assert_refused(edge.get("/img/note.txt!/fw/10"), 405, "40500011")
    response = edge.get("/img/note.txt!/fw/10/ignore-error/true")
    assert response.status_code == 200 and response.content == b"not an image"
    assert response.headers["x-gmkerl-err-code"] == "405"


def test_ignore_error_does_not_hide_a_bad_parameter(edge: Edge) -> None:
    assert_refused(edge.get("/img/photo.png!/fw/0/ignore-error/true"), 400, "40000010")


@pytest.mark.parametrize(("params", "size", "fmt"), [
    ("/format/webp", (600, 400), "WEBP"),
    ("/format/png", (600, 400), "PNG"),
    ("/fw/300/unsharp/true/quality/80/format/png", (300, 200), "PNG"),
    ("/fw/500", (500, 333), "JPEG"),
    ("/format/webp/lossless/true", (600, 400), "WEBP"),
    ("/fw/300/quality/95", (300, 200), "JPEG"),
    ("/crop/300x200a80a60", (300, 200), "JPEG"),
    ("/clip/300x200a80a60", (300, 200), "JPEG"),
    ("/canvas/600x400a50a20", (600, 400), "JPEG"),
    ("/border/3x2/brdcolor/FF000000", (606, 404), "JPEG"),
])
def test_the_pages_examples_give_the_image_they_say(edge: Edge, params: str,
                                                    size: tuple[int, int], fmt: str) -> None:
    image = opened(edge.get(f"/img/photo.jpg!{params}"))
    assert (image.size, image.format) == (size, fmt)


@pytest.mark.parametrize(("params", "key"), [
    ("/gravity/north", "gravity"), ("/rotate/0", "rotate"), ("/flip/up", "flip"),
    ("/fp/0", "fp"), ("/excolor/5000", "excolor"), ("/coalesce/no", "coalesce"),
    ("/gdori/top,down", "gdstartcolor"),
])
def test_bad_values_of_the_pages_keys_are_refused_naming_the_key(edge: Edge, params: str,
                                                                 key: str) -> None:
    body = assert_refused(edge.get(f"/img/photo.png!{params}"), 400, "40000010")
    assert body["msg"].startswith(f"{key}: "), body


def png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims width x height, with no pixel data: enough for any reader to
    learn the size without decoding (a real 200-million-pixel image would not fit a test)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (len(data).to_bytes(4, "big") + kind + data
                + zlib.crc32(kind + data).to_bytes(4, "big"))

    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")


def test_an_image_wider_than_the_pages_limit_is_405(sandbox, edge: Edge) -> None:
    Storage(sandbox).put("/img/wide.png", image_bytes(20_001, 1))
    body = assert_refused(edge.get("/img/wide.png!/fw/100"), 405, "40500012")
    assert body["msg"].startswith("Image Width/Height Limit Error"), body


def test_more_pixels_than_the_pages_limit_is_409_and_ignore_error_answers_the_original(
        sandbox, edge: Edge) -> None:
    huge = png_header(14_200, 14_200)  # 201,640,000 pixels
    Storage(sandbox).put("/img/huge.png", huge)
    body = assert_refused(edge.get("/img/huge.png!/fw/100"), 409, "40900011")
    assert body["msg"].startswith("Limit Exceeded"), body
    response = edge.get("/img/huge.png!/fw/100/ignore-error/true")
    assert response.status_code == 200 and response.content == huge
    assert response.headers["x-gmkerl-err-code"] == "409"
