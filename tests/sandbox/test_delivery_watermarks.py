"""cloud/image.md's watermarks at the edge: a text (`/watermark/text/<Base64>` with font, size,
color, border, align, margin, opacity) and an image of the same service
(`/watermark/url/<Base64 path>` with align, margin, opacity, percent, repeat), by URL and
inside custom versions. The pixels are read back with Pillow."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from PIL import Image, ImageChops

from tests.sandbox.test_delivery_support import (
    Edge,
    Storage,
    assert_refused,
    image_bytes,
    opened,
)

WHITE = (255, 255, 255)
RED = (255, 0, 0)


def encoded(text: str) -> str:
    """The page's encoding: Base64 with `/` written `|`."""
    return base64.b64encode(text.encode()).decode().replace("/", "|")


def colours(image: Image.Image) -> list[tuple[int, tuple[int, int, int]]]:
    """(count, RGB colour) of every colour of the picture, most frequent first."""
    found: Any = image.convert("RGB").getcolors(1 << 16) or []
    return sorted(found, reverse=True)


def pixel(image: Image.Image, point: tuple[int, int]) -> tuple[int, int, int]:
    found: Any = image.convert("RGB").getpixel(point)
    return tuple(found)


def changed_box(image: Image.Image) -> tuple[int, int, int, int] | None:
    """The bounding box of every pixel that is no longer white."""
    plain = Image.new("RGB", image.size, WHITE)
    return ImageChops.difference(image.convert("RGB"), plain).getbbox()


@pytest.fixture
def edge(sandbox):
    storage = Storage(sandbox)
    storage.put("/w/white.png", image_bytes(400, 200, colour=WHITE))
    storage.put("/w/marks/logo.png", image_bytes(40, 20, colour=RED))
    storage.put("/w/notes.txt", b"not an image")
    return Edge(sandbox)


def test_the_pages_own_example_text_is_drawn_top_left_by_default(edge):
    assert encoded("你好！") == "5L2g5aW977yB"
    image = opened(edge.get("/w/white.png!/watermark/text/5L2g5aW977yB/font/simhei"))
    assert image.size == (400, 200)
    box = changed_box(image)
    assert box is not None
    left, top, right, bottom = box
    assert 15 <= left <= 30 and 15 <= top <= 35  # the default margin is 20x20 from northwest
    assert right < 200 and bottom < 80


@pytest.mark.parametrize(("align", "check"), [
    ("southeast", lambda box: box[2] <= 380 and box[2] > 300 and box[3] <= 180),
    ("north", lambda box: box[0] > 120 and box[2] < 280 and box[1] < 60),
    ("center", lambda box: box[0] > 120 and box[2] < 280 and box[1] > 60 and box[3] < 140),
    ("west", lambda box: box[0] < 40 and box[1] > 60 and box[3] < 140),
])
def test_align_places_the_text(edge, align, check):
    params = f"/watermark/text/{encoded('Hi')}/font/arial/align/{align}"
    box = changed_box(opened(edge.get(f"/w/white.png!{params}")))
    assert box is not None and check(box), box


def test_margin_moves_the_text_from_its_edges(edge):
    params = f"/watermark/text/{encoded('Hi')}/font/arial/margin/100x50"
    box = changed_box(opened(edge.get(f"/w/white.png!{params}")))
    assert box is not None
    assert 95 <= box[0] <= 110 and 45 <= box[1] <= 65


def test_color_size_and_opacity_of_the_text(edge):
    params = f"/watermark/text/{encoded('█')}/font/simsun/size/80/color/FF0000"
    image = opened(edge.get(f"/w/white.png!{params}")).convert("RGB")
    assert RED in {colour for _count, colour in colours(image)}
    box = changed_box(image)
    assert box is not None and box[3] - box[1] > 40  # 80 px text, not the 32 px default
    faint = opened(edge.get(f"/w/white.png!{params}/opacity/50")).convert("RGB")
    [(_count, inked)] = [(count, colour) for count, colour in colours(faint)
                         if colour != WHITE][:1]
    assert inked[0] == 255 and 120 <= inked[1] <= 135  # half of red on white
    unseen = opened(edge.get(f"/w/white.png!{params}/opacity/0"))
    assert changed_box(unseen) is None


def test_the_text_border_outlines_the_glyphs(edge):
    params = f"/watermark/text/{encoded('Hi')}/font/arial/size/60/color/FFFFFF"
    assert changed_box(opened(edge.get(f"/w/white.png!{params}"))) is None  # white on white
    outlined = opened(edge.get(f"/w/white.png!{params}/border/0000FF00")).convert("RGB")
    assert any(colour[2] > 200 and colour[0] < 60 for _count, colour in colours(outlined))
    # FF is fully transparent: the page's default, no outline.
    assert changed_box(opened(edge.get(f"/w/white.png!{params}/border/0000FFFF"))) is None


def test_an_image_border_after_a_text_watermark_stays_the_images(edge):
    params = f"/watermark/text/{encoded('Hi')}/border/10x5"
    assert opened(edge.get(f"/w/white.png!{params}")).size == (420, 210)


def test_an_image_watermark_of_the_same_service(edge):
    params = f"/watermark/url/{encoded('/w/marks/logo.png')}/align/southeast/margin/10x10"
    image = opened(edge.get(f"/w/white.png!{params}")).convert("RGB")
    assert changed_box(image) == (350, 170, 390, 190)
    assert image.getpixel((370, 180)) == RED


def test_percent_sizes_the_image_mark_from_the_pictures_shorter_side(edge):
    params = f"/watermark/url/{encoded('/w/marks/logo.png')}/percent/50/margin/0x0"
    # The mark's shorter side (20) becomes 50 % of 200: the 40x20 logo is drawn 200x100.
    assert changed_box(opened(edge.get(f"/w/white.png!{params}"))) == (0, 0, 200, 100)


def test_repeat_tiles_the_image_mark(edge):
    params = f"/watermark/url/{encoded('/w/marks/logo.png')}/repeat/true/margin/60x80"
    image = opened(edge.get(f"/w/white.png!{params}")).convert("RGB")
    for point in ((10, 10), (110, 10), (310, 110), (10, 110)):
        assert image.getpixel(point) == RED, point
    assert image.getpixel((50, 10)) == WHITE


def test_repeat_refuses_more_tiles_than_the_edge_draws(edge, sandbox):
    Storage(sandbox).put("/w/marks/dot.png", image_bytes(1, 1, colour=RED))
    params = f"/watermark/url/{encoded('/w/marks/dot.png')}/repeat/true/margin/0x0"
    body = assert_refused(edge.get(f"/w/white.png!{params}"), 400, "40000010")
    assert body["msg"].startswith("repeat: the watermark would be drawn 80000 times"), body


def test_image_mark_opacity(edge):
    params = f"/watermark/url/{encoded('/w/marks/logo.png')}/opacity/50/margin/0x0"
    red, green, blue = pixel(opened(edge.get(f"/w/white.png!{params}")), (5, 5))
    assert red == 255 and 120 <= green <= 135 and 120 <= blue <= 135


def test_the_pages_example_of_two_marks(edge):
    """A text mark and an image mark; `align` after the image belongs to the image."""
    params = (f"/watermark/text/{encoded('你好！')}/font/simhei"
              f"/watermark/url/{encoded('/w/marks/logo.png')}/align/southeast")
    image = opened(edge.get(f"/w/white.png!{params}")).convert("RGB")
    assert image.getpixel((360, 170)) == RED  # the logo, 20x20 from the south-east corner
    assert changed_box(image.crop((0, 0, 200, 100))) is not None  # the text, top left


def test_a_watermark_inside_a_custom_version(edge):
    edge.configure(versions={
        "marked": f"/fw/200/watermark/url/{encoded('/w/marks/logo.png')}/margin/0x0"})
    image = opened(edge.get("/w/white.png!marked")).convert("RGB")
    assert image.size == (200, 100)
    assert changed_box(image) == (0, 0, 40, 20)


def test_a_replaced_mark_image_is_not_served_stale(edge, sandbox):
    params = f"/watermark/url/{encoded('/w/marks/logo.png')}/margin/0x0"
    assert opened(edge.get(f"/w/white.png!{params}")).convert("RGB").getpixel((5, 5)) == RED
    Storage(sandbox).put("/w/marks/logo.png", image_bytes(40, 20, colour=(0, 0, 255)))
    again = edge.get(f"/w/white.png!{params}")
    assert opened(again).convert("RGB").getpixel((5, 5)) == (0, 0, 255)


@pytest.mark.parametrize(("params", "message"), [
    ("/watermark/text/%40%40%40", "watermark/text: must be Base64"),
    ("/watermark/text/5L2g5aW977y", "watermark/text: must be Base64"),
    ("/watermark/text/||4=", "watermark/text: must be Base64 (with | for /) of UTF-8"),
    ("/watermark/url/" + encoded("logo.png"), "watermark/url: must be the Base64 of a path"),
    ("/watermark/image/abcd", "watermark: must be followed by text or url"),
    ("/watermark/text", "watermark: must be /watermark/text/"),
    ("/watermark/text/5L2g/fontsize/20", "fontsize: unknown processing key"),
    ("/watermark/text/5L2g/font/comic", "font: must be one of simsun"),
    ("/watermark/text/5L2g/size/0", "size: must be a whole number from 1 to 1000"),
    ("/watermark/text/5L2g/color/red", "color: must be RRGGBB"),
    ("/watermark/text/5L2g/align/middle", "align: must be one of northwest"),
    ("/watermark/text/5L2g/margin/10", "margin: must be <width>x<height>"),
    ("/watermark/text/5L2g/opacity/101", "opacity: must be a whole number from 0 to 100"),
    ("/watermark/text/5L2g/percent/50", "percent: only for /watermark/url/"),
    ("/watermark/url/" + encoded("/w/marks/logo.png") + "/font/simsun",
     "font: only for /watermark/text/"),
    ("/watermark/text/5L2g/size/20/size/30", "size: given more than once for this watermark"),
    ("/align/north", "align: only after /watermark/text/... or /watermark/url/..."),
    ("/watermark/url/" + encoded("/w/marks/nothing.png"), "watermark/url: /w/marks/nothing.png "
                                                           "is not a file of this service"),
    ("/watermark/url/" + encoded("/w/notes.txt"), "watermark/url: /w/notes.txt is not an image"),
])
def test_bad_watermarks_are_refused_naming_the_key(edge, params, message):
    body = assert_refused(edge.get(f"/w/white.png!{params}"), 400, "40000010")
    assert body["msg"].startswith(message), body


def test_a_bad_watermark_in_a_version_is_refused_when_configured(edge, sandbox):
    response = sandbox.control("POST", "/delivery/config",
                               {"versions": {"bad": "/watermark/text/@@"}})
    assert response.status_code == 400, response.text
    assert response.json()["field"] == "versions.bad"
    assert "watermark/text: must be Base64" in response.text
