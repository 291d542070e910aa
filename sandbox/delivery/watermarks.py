"""Drawing the edge's watermarks (cloud/image.md, "水印") with Pillow.

`align` is one of the nine gravities; `margin` `<x>x<y>` keeps the mark that far from the edges
it is aligned to (a centred axis ignores it). `opacity` 0-100 is how opaque the mark is (100,
the default, fully). A text's `border` `RRGGBBAA` outlines the glyphs, AA being transparency
(00 opaque, FF invisible, the default). An image mark is used at its own size unless `percent`
(1-100) sizes it: its shorter side becomes that percent of the picture's shorter side.
`repeat/true` tiles the image mark over the whole picture, `margin` apart, from the top-left.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image, ImageDraw

from sandbox.delivery.imageparams import MAX_SIDE, ImageParamError, Watermark
from sandbox.storage import fonts

MAX_TILES = 10_000  # `repeat/true`: more copies than this are refused (time, not the page)
# Opens the image of a `/watermark/url/` path (in the same service) or raises ImageParamError.
MarkLoader = Callable[[str], Image.Image]
# Each gravity as (horizontal, vertical) placement.
_GRAVITY = {
    "northwest": ("start", "start"), "north": ("middle", "start"), "northeast": ("end", "start"),
    "west": ("start", "middle"), "center": ("middle", "middle"), "east": ("end", "middle"),
    "southwest": ("start", "end"), "south": ("middle", "end"), "southeast": ("end", "end"),
}


def apply(image: Image.Image, marks: tuple[Watermark, ...], load: MarkLoader | None, *,
          animated: bool = False) -> Image.Image:
    """`image` with every mark drawn in order; on a frame of an animation only the marks with
    `animate/true` (the default keeps animations unmarked, as the page says)."""
    wanted = [mark for mark in marks if mark.animate or not animated]
    if not wanted:
        return image
    mode = image.mode
    base = image.convert("RGBA")
    for mark in wanted:
        layer = _text_layer(base.size, mark) if mark.kind == "text" else _image_layer(
            base.size, mark, load)
        base = Image.alpha_composite(base, layer)
    return base if mode in ("RGBA", "LA", "PA", "P") else base.convert("RGB")


def position(outer: tuple[int, int], inner: tuple[int, int], align: str,
             margin: tuple[int, int]) -> tuple[int, int]:
    """Top-left corner of a box of size `inner` placed by gravity `align` in `outer`."""
    horizontal, vertical = _GRAVITY[align]
    return (_along(horizontal, outer[0], inner[0], margin[0]),
            _along(vertical, outer[1], inner[1], margin[1]))


def _along(where: str, outer: int, inner: int, gap: int) -> int:
    if where == "start":
        return gap
    if where == "end":
        return outer - inner - gap
    return (outer - inner) // 2


def _alpha(opacity: int) -> int:
    return round(255 * opacity / 100)


def _text_layer(size: tuple[int, int], mark: Watermark) -> Image.Image:
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    font = fonts.load(mark.font, mark.size)
    outline = mark.border is not None and mark.border[3] < 255
    stroke = max(1, mark.size // 16) if outline else 0
    left, top, right, bottom = draw.textbbox((0, 0), mark.text, font=font, stroke_width=stroke)
    x, y = position(size, (int(right - left), int(bottom - top)), mark.align, mark.margin)
    alpha = _alpha(mark.opacity)
    stroke_fill = None
    if mark.border is not None and outline:
        red, green, blue, transparency = mark.border
        stroke_fill = (red, green, blue, round((255 - transparency) * alpha / 255))
    draw.text((x - left, y - top), mark.text, font=font, fill=(*mark.color, alpha),
              stroke_width=stroke, stroke_fill=stroke_fill)
    return layer


def _image_layer(size: tuple[int, int], mark: Watermark, load: MarkLoader | None) -> Image.Image:
    if load is None:
        raise ImageParamError("watermark/url", "image watermarks need the file's service")
    picture = load(mark.path).convert("RGBA")
    if mark.percent:
        side = max(1, round(min(size) * mark.percent / 100))
        factor = side / min(picture.size)
        width, height = (max(1, round(n * factor)) for n in picture.size)
        if max(width, height) > MAX_SIDE:
            raise ImageParamError("percent", f"the watermark would be {width}x{height}, larger "
                                             f"than the edge makes")
        picture = picture.resize((width, height), Image.Resampling.LANCZOS)
    if mark.opacity < 100:
        alpha = picture.getchannel("A").point(lambda value: value * mark.opacity // 100)
        picture.putalpha(alpha)
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    if mark.repeat:
        step_x = picture.width + mark.margin[0]
        step_y = picture.height + mark.margin[1]
        tiles = -(-size[0] // step_x) * -(-size[1] // step_y)
        if tiles > MAX_TILES:
            raise ImageParamError("repeat", f"the watermark would be drawn {tiles} times, more "
                                            f"than {MAX_TILES}: use a larger mark or margin")
        for top in range(0, size[1], step_y):
            for left in range(0, size[0], step_x):
                layer.paste(picture, (left, top))  # tiles never overlap: a plain copy
        return layer
    # The layer is transparent: a plain copy keeps the mark's own alpha (a masked paste would
    # apply it twice).
    layer.paste(picture, position(size, picture.size, mark.align, mark.margin))
    return layer
