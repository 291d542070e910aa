"""Every image-processing key (and custom versions) through the real sandbox edge, each result
opened with Pillow to check its size, format or pixels."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from console.services import default_domain
from delivery import services
from tests.delivery.conftest import Edge, png_bytes

pytestmark = pytest.mark.django_db
SOURCE = "/img/source.png"  # 400 x 300


def two_halves() -> bytes:
    """Left half black, right half white: blur and sharpening show at the edge between."""
    image = Image.new("RGB", (400, 300), (0, 0, 0))
    image.paste((255, 255, 255), (200, 0, 400, 300))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def animated_gif() -> bytes:
    frames = [Image.new("RGB", (60, 40), colour) for colour in ((255, 0, 0), (0, 0, 255))]
    buffer = io.BytesIO()
    frames[0].save(buffer, "GIF", save_all=True, append_images=frames[1:], duration=100,
                   loop=0)
    return buffer.getvalue()


def jpeg_rotated_by_exif() -> bytes:
    """A 400 x 300 JPEG whose EXIF says 'rotate 90 clockwise to display' (orientation 6)."""
    image = Image.new("RGB", (400, 300), (10, 120, 200))
    exif = Image.Exif()
    exif[0x0112] = 6
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif.tobytes())
    return buffer.getvalue()


@pytest.fixture
def images(edge: Edge, publish: Any) -> Edge:
    edge.upload(SOURCE, png_bytes(400, 300))
    edge.upload("/img/halves.png", two_halves())
    edge.upload("/img/anim.gif", animated_gif())
    edge.upload("/img/exif.jpg", jpeg_rotated_by_exif())
    publish(versions={"thumb": "/fw/200", "webp": "/fw/100/format/webp"})
    return edge


def fetch(edge: Edge, path: str, pairs: list[tuple[str, str]]) -> Image.Image:
    response = edge.get(services.processed_link(default_domain(), path, pairs))
    assert response.status_code == 200, response.text[:300]
    image = Image.open(io.BytesIO(response.content))
    image.load()
    return image


@pytest.mark.parametrize(("key", "value", "size"), [
    ("sq", "120", (120, 120)),
    ("fw", "200", (200, 150)),
    ("fh", "150", (200, 150)),
    ("fwfh", "100x100", (100, 75)),
    ("both", "100x50", (100, 50)),
    ("max", "200", (200, 150)),
    ("min", "150", (200, 150)),
    ("scale", "50", (200, 150)),
    ("rotate", "90", (300, 400)),
    ("crop", "100x50a10a20", (100, 50)),
    ("canvas", "500x400a50a50", (500, 400)),
])
def test_each_size_key_gives_the_expected_size(images: Edge, key: str, value: str,
                                               size: tuple[int, int]) -> None:
    assert fetch(images, SOURCE, [(key, value)]).size == size


def test_fwfh_never_scales_up(images: Edge) -> None:
    assert fetch(images, SOURCE, [("fwfh", "1000x1000")]).size == (400, 300)


@pytest.mark.parametrize(("value", "pil_format"), [
    ("jpg", "JPEG"), ("png", "PNG"), ("webp", "WEBP"),
])
def test_format_converts(images: Edge, value: str, pil_format: str) -> None:
    assert fetch(images, SOURCE, [("format", value)]).format == pil_format


def test_gifto_keeps_one_frame_of_an_animated_gif(images: Edge) -> None:
    original = Image.open(io.BytesIO(images.get("/img/anim.gif").content))
    assert getattr(original, "n_frames", 1) == 2
    assert getattr(fetch(images, "/img/anim.gif", [("gifto", "true")]), "n_frames", 1) == 1


def test_rotate_auto_follows_exif(images: Edge) -> None:
    assert fetch(images, "/img/exif.jpg", [("rotate", "auto")]).size == (300, 400)


def test_crop_takes_the_area_from_the_top_left_point(images: Edge) -> None:
    cropped = fetch(images, "/img/halves.png", [("crop", "20x10a190a0")])
    assert cropped.size == (20, 10)
    assert cropped.convert("RGB").getpixel((0, 5)) == (0, 0, 0)
    assert cropped.convert("RGB").getpixel((19, 5)) == (255, 255, 255)


def test_gaussblur_softens_the_edge_and_unsharp_keeps_the_size(images: Edge) -> None:
    blurred = fetch(images, "/img/halves.png", [("gaussblur", "5x3")]).convert("RGB")
    assert blurred.size == (400, 300)
    edge = blurred.getpixel((199, 150))
    assert isinstance(edge, tuple) and 0 < edge[0] < 255
    sharpened = fetch(images, "/img/halves.png", [("unsharp", "true")])
    assert sharpened.size == (400, 300)


def test_quality_and_compress_change_the_jpeg_bytes(images: Edge) -> None:
    def size_of(pairs: list[tuple[str, str]]) -> int:
        response = images.get(services.processed_link(default_domain(), "/img/halves.png", pairs))
        assert response.status_code == 200
        return len(response.content)

    low = size_of([("format", "jpg"), ("quality", "5")])
    high = size_of([("format", "jpg"), ("quality", "95")])
    assert low < high
    compressed = fetch(images, "/img/halves.png", [("compress", "true")])
    assert compressed.size == (400, 300)


def test_progressive_gives_a_progressive_jpeg(images: Edge) -> None:
    image = fetch(images, SOURCE, [("format", "jpg"), ("progressive", "true")])
    assert image.format == "JPEG"
    assert image.info.get("progressive") or image.info.get("progression")


def test_canvas_colour_fills_the_canvas_around_the_image(images: Edge) -> None:
    image = fetch(images, SOURCE, [("canvas", "500x400a50a50"), ("cvscolor", "00FF0000")])
    assert image.size == (500, 400)
    assert image.convert("RGB").getpixel((5, 5)) == (0, 255, 0)
    assert image.convert("RGB").getpixel((100, 100)) == (200, 40, 40)


def test_border_adds_a_coloured_frame(images: Edge) -> None:
    image = fetch(images, SOURCE, [("border", "10x20"), ("brdcolor", "0000FF00")])
    assert image.size == (420, 340)
    assert image.convert("RGB").getpixel((2, 2)) == (0, 0, 255)
    assert image.convert("RGB").getpixel((200, 150)) == (200, 40, 40)


def test_custom_versions_apply_their_parameters(images: Edge) -> None:
    thumb = images.get(services.version_link(default_domain(), SOURCE, "thumb"))
    assert Image.open(io.BytesIO(thumb.content)).size == (200, 150)
    webp_url = services.version_link(default_domain(), SOURCE, "webp")
    webp = Image.open(io.BytesIO(images.get(webp_url).content))
    assert (webp.format, webp.size) == ("WEBP", (100, 75))


def test_keys_combine_in_one_url(images: Edge) -> None:
    image = fetch(images, SOURCE, [("fw", "200"), ("rotate", "90"), ("format", "webp")])
    assert (image.format, image.size) == ("WEBP", (150, 200))
