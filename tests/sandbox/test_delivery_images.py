"""URL-parameter image processing: every key of the spec's table, checked by opening the
result with Pillow, and the refusals of bad values."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageFilter, ImageStat

from tests.sandbox.test_delivery_support import (
    Edge,
    Storage,
    assert_refused,
    image_bytes,
    opened,
)


@pytest.fixture
def edge(sandbox):
    storage = Storage(sandbox)
    storage.put("/img/photo.png", image_bytes(400, 200))
    storage.put("/img/photo.jpg", image_bytes(400, 200, "JPEG"))
    return Edge(sandbox)


@pytest.mark.parametrize(("params", "size"), [
    ("/sq/100", (100, 100)),
    ("/fw/100", (100, 50)),
    ("/fh/50", (100, 50)),
    ("/fwfh/100x100", (100, 50)),
    ("/fwfh/1000x1000", (400, 200)),  # never scaled up
    ("/both/120x90", (120, 90)),
    ("/max/200", (200, 100)),
    ("/max/800", (400, 200)),  # never enlarged without force
    ("/max/800/force/true", (800, 400)),
    ("/min/100", (200, 100)),
    ("/scale/50", (200, 100)),
    ("/rotate/90", (200, 400)),
    ("/rotate/180", (400, 200)),
    ("/rotate/270", (200, 400)),
    ("/crop/100x50a10a20", (100, 50)),
    ("/crop/100x50a350a180", (50, 20)),  # cut at the image's edge
    ("/canvas/500x300a10a10", (500, 300)),
    ("/border/10x5", (420, 210)),
    ("/border/10x5/brdcolor/00FF00FF", (420, 210)),
    ("/fw/200/rotate/90/border/5x5", (110, 210)),
])
def test_each_scaling_key_gives_the_right_size(edge, params, size):
    assert opened(edge.get(f"/img/photo.png!{params}")).size == size


@pytest.mark.parametrize(("fmt", "pillow_format", "content_type"), [
    ("jpg", "JPEG", "image/jpeg"), ("png", "PNG", "image/png"), ("webp", "WEBP", "image/webp"),
])
def test_format_converts(edge, fmt, pillow_format, content_type):
    response = edge.get(f"/img/photo.png!/format/{fmt}")
    assert response.headers["Content-Type"] == content_type
    assert opened(response).format == pillow_format


def test_without_format_the_source_format_is_kept(edge):
    response = edge.get("/img/photo.jpg!/fw/100")
    assert response.headers["Content-Type"] == "image/jpeg"
    assert opened(response).format == "JPEG"


def test_quality_changes_the_compression(edge, sandbox):
    noisy = Image.effect_noise((300, 300), 80).convert("RGB")
    buffer = io.BytesIO()
    noisy.save(buffer, format="PNG")
    Storage(sandbox).put("/img/noise.png", buffer.getvalue())
    low = edge.get("/img/noise.png!/format/jpg/quality/10")
    high = edge.get("/img/noise.png!/format/jpg/quality/95")
    assert opened(low).format == "JPEG"
    assert len(low.content) < len(high.content) / 2


def test_progressive_makes_a_progressive_jpeg(edge):
    image = opened(edge.get("/img/photo.jpg!/progressive/true"))
    assert image.info.get("progressive") or image.info.get("progression")
    assert not opened(edge.get("/img/photo.jpg!/fw/100")).info.get("progressive")


def test_compress_still_gives_the_same_image(edge):
    image = opened(edge.get("/img/photo.png!/compress/true"))
    assert image.size == (400, 200)
    assert image.convert("RGB").getpixel((10, 10)) == (200, 30, 30)


def test_gifto_keeps_the_first_frame_of_an_animation(edge, sandbox):
    frames = [Image.new("RGB", (60, 40), colour) for colour in ("red", "green", "blue")]
    buffer = io.BytesIO()
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:], duration=100)
    Storage(sandbox).put("/img/anim.gif", buffer.getvalue())
    assert getattr(opened(edge.get("/img/anim.gif!/fw/30")), "n_frames", 1) == 3
    single = opened(edge.get("/img/anim.gif!/gifto/true"))
    assert getattr(single, "n_frames", 1) == 1
    first = single.convert("RGB").getpixel((5, 5))
    assert isinstance(first, tuple) and first[0] > 200  # the red first frame


def test_rotate_auto_follows_the_exif_orientation(edge, sandbox):
    exif = Image.Exif()
    exif[0x0112] = 6  # stored sideways: display rotated 90 degrees clockwise
    Storage(sandbox).put("/img/sideways.jpg", image_bytes(400, 200, "JPEG", exif=exif))
    assert opened(edge.get("/img/sideways.jpg!/rotate/auto")).size == (200, 400)


def test_crop_takes_the_box_at_its_top_left_point(edge, sandbox):
    image = Image.new("RGB", (100, 100), "white")
    image.paste((0, 0, 255), (50, 50, 100, 100))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    Storage(sandbox).put("/img/quarters.png", buffer.getvalue())
    cropped = opened(edge.get("/img/quarters.png!/crop/50x50a50a50")).convert("RGB")
    assert cropped.size == (50, 50)
    assert cropped.getpixel((25, 25)) == (0, 0, 255)


def test_canvas_fills_with_cvscolor_and_places_the_image(edge):
    image = opened(edge.get("/img/photo.png!/canvas/500x300a50a50/cvscolor/0000FF00"))
    rgba = image.convert("RGBA")
    assert rgba.getpixel((5, 5)) == (0, 0, 255, 255)
    inside = rgba.getpixel((60, 60))
    assert isinstance(inside, tuple) and inside[:3] == (200, 30, 30)


def test_cvscolor_alpha_is_kept_in_png_ff_being_invisible(edge):
    # cloud/image.md: AA is transparency, 00 opaque and FF fully transparent.
    image = opened(edge.get("/img/photo.png!/canvas/500x300a0a0/cvscolor/000000FF"))
    outside = image.convert("RGBA").getpixel((450, 250))
    assert isinstance(outside, tuple) and outside[3] == 0


def test_border_uses_brdcolor(edge):
    image = opened(edge.get("/img/photo.png!/border/10x10/brdcolor/00FF0000")).convert("RGB")
    assert image.getpixel((2, 2)) == (0, 255, 0)
    assert image.getpixel((15, 15)) == (200, 30, 30)


def sharpness(image: Image.Image) -> float:
    edges = image.convert("L").filter(ImageFilter.FIND_EDGES)
    return ImageStat.Stat(edges).mean[0]


def striped(sandbox) -> None:
    image = Image.new("L", (200, 200), 0)
    for x in range(0, 200, 20):
        image.paste(255, (x, 0, x + 10, 200))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    Storage(sandbox).put("/img/stripes.png", buffer.getvalue())


def test_gaussblur_softens_the_edges(edge, sandbox):
    striped(sandbox)
    plain = opened(edge.get("/img/stripes.png"))
    blurred = opened(edge.get("/img/stripes.png!/gaussblur/10x4"))
    assert blurred.size == plain.size
    assert sharpness(blurred) < sharpness(plain) * 0.8


def test_unsharp_sharpens(edge, sandbox):
    striped(sandbox)
    blurred = edge.get("/img/stripes.png!/gaussblur/5x2")
    soft = opened(blurred)
    # The blurred stripes, stored and sharpened, have harder edges than the blurred ones.
    Storage(sandbox).put("/img/soft.png", blurred.content)
    sharpened = opened(edge.get("/img/soft.png!/unsharp/true"))
    assert sharpness(sharpened) > sharpness(soft)


def test_keys_combine_in_any_order(edge):
    one = opened(edge.get("/img/photo.png!/format/webp/fw/100/rotate/90"))
    other = opened(edge.get("/img/photo.png!/rotate/90/fw/100/format/webp"))
    assert one.size == other.size == (50, 100)
    assert one.format == other.format == "WEBP"


def test_a_transparent_png_turned_into_jpeg_goes_on_white(edge, sandbox):
    Storage(sandbox).put("/img/clear.png", image_bytes(20, 20, "PNG", (0, 0, 0, 0), "RGBA"))
    image = opened(edge.get("/img/clear.png!/format/jpg"))
    assert image.getpixel((10, 10)) == (255, 255, 255)


@pytest.mark.parametrize(("params", "key"), [
    ("/fw/abc", "fw"),
    ("/fw/0", "fw"),
    ("/fw/10001", "fw"),
    ("/sq/-5", "sq"),
    ("/fwfh/100", "fwfh"),
    ("/both/100x0", "both"),
    ("/scale/0", "scale"),
    ("/scale/1001", "scale"),
    ("/quality/0", "quality"),
    ("/quality/100", "quality"),
    ("/rotate/361", "rotate"),
    ("/format/gif", "format"),
    ("/gifto/yes", "gifto"),
    ("/crop/10x10", "crop"),
    ("/crop/10x10", "crop"),
    ("/gaussblur/60x2", "gaussblur"),
    ("/gaussblur/5x0", "gaussblur"),
    ("/canvas/100x100b1", "canvas"),
    ("/canvas/100x100a0a0/cvscolor/FFF", "cvscolor"),
    ("/cvscolor/FFFFFFFF", "cvscolor"),
    ("/brdcolor/000000FF", "brdcolor"),
    ("/border/axb", "border"),
    ("/fw/100/fh/100", "fh"),
    ("/fw/100/fw/200", "fw"),
    ("/blur/3", "blur"),
    ("/fw", "fw"),
    ("/crop/500x50a450a0", "crop"),  # starts outside the 400x200 image
    ("/max/10000/force/true", "max"),  # would be 10000x5000: larger than the edge makes
])
def test_bad_values_are_refused_naming_the_key(edge, params, key):
    body = assert_refused(edge.get(f"/img/photo.png!{params}"), 400, "40000010")
    assert body["msg"].startswith(f"{key}:"), body


def test_processing_a_file_that_is_not_an_image_is_refused(edge, sandbox):
    Storage(sandbox).put("/img/notes.png", b"not an image at all")
    assert_refused(edge.get("/img/notes.png!/fw/100"), 405, "40500011")  # cloud/image.md


def test_parameters_on_a_missing_file_are_not_found(edge):
    assert_refused(edge.get("/img/missing.png!/fw/100"), 404, "40400001")


def test_the_separator_setting_is_followed(edge):
    edge.configure(separator="_")
    assert opened(edge.get("/img/photo.png_/fw/100")).size == (100, 50)
    assert_refused(edge.get("/img/photo.png!/fw/100"), 404, "40400001")


def test_head_gives_the_processed_size(edge):
    response = edge.request("HEAD", "/img/photo.png!/fw/100")
    assert response.status_code == 200
    assert response.content == b""
    assert int(response.headers["Content-Length"]) == \
        len(edge.get("/img/photo.png!/fw/100").content)
