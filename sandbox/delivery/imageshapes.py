"""The geometry of cloud/image.md's keys, with Pillow: scaling sizes, crop and clip boxes placed
by their gravity, rotation, flips, rounded corners and the gradient.

Readings where the page is terse (docs/decisions.md, "Image processing keys"):
- fwfh fits inside `<w>x<h>`, fwfh2 covers it (the smallest size at least `<w>x<h>`); fxfn fits
  the long side in `<long>` and the short in `<short>`, fxfn2 covers them; fp scales so that
  width x height is the largest product not above the number. None of them, nor fw, fh, max and
  min, enlarges without `force/true`.
- both covers `<w>x<h>` and crops the middle (the page: "宽高不足时居中裁剪再缩放"); with
  `force/true` it stretches to `<w>x<h>` without cropping. sq covers the square and crops the
  middle. scale, wscale and hscale always give what they say (1-1000 percent).
- A crop or clip box starts where its gravity puts a box of its size (northwest: the top-left
  corner; center: the middle; ...), then moves by its offsets, positive towards east and south.
  A width or height of 0 is the image's less the offset (the page's 0x0: "自动根据偏移量计算").
  What falls outside the image is cut off; a box wholly outside is refused.
- Rotation by any other angle than 90, 180 and 270 turns about the middle and enlarges the
  picture to hold the turned image, the new corners transparent (white in a JPEG).
- `roundrect/<r>` makes the four corners transparent outside circles of radius r.
- The gradient is drawn over the image like CSS's linear-gradient: the start colour up to the
  first `gdpos` position, blending to the stop colour at the second, the stop colour beyond.
"""

from __future__ import annotations

import math

from PIL import Image, ImageChops, ImageDraw

from sandbox.delivery.imageparams import FORCED_KEYS, Gradient, Scaling
from sandbox.delivery.imagevalues import Box, ImageParamError, opaque

# Each gravity as (horizontal, vertical) placement.
GRAVITY = {
    "northwest": ("start", "start"), "north": ("middle", "start"), "northeast": ("end", "start"),
    "west": ("start", "middle"), "center": ("middle", "middle"), "east": ("end", "middle"),
    "southwest": ("start", "end"), "south": ("middle", "end"), "southeast": ("end", "end"),
}
CLOCKWISE = {"90": Image.Transpose.ROTATE_270, "180": Image.Transpose.ROTATE_180,
             "270": Image.Transpose.ROTATE_90}
FLIPS = {"left,right": Image.Transpose.FLIP_LEFT_RIGHT,
         "top,down": Image.Transpose.FLIP_TOP_BOTTOM}


def scaled_size(width: int, height: int, scaling: Scaling, *,
                force: bool = False) -> tuple[int, int]:
    """The size a scaling key gives an image of width x height (before the middle crop of sq
    and both)."""
    key = scaling.key
    if key == "both" and force:
        return scaling.width, scaling.height
    if key == "wscale":
        return _at_least_one(width * scaling.width / 100, height)
    if key == "hscale":
        return _at_least_one(width, height * scaling.width / 100)
    if key == "fp":
        return _pixel_product(width, height, scaling.width, force=force)
    factor = _factor(width, height, scaling)
    if key in FORCED_KEYS and not force and factor > 1:
        return width, height
    return _at_least_one(width * factor, height * factor)


def _factor(width: int, height: int, scaling: Scaling) -> float:
    key, wide, high = scaling.key, scaling.width, scaling.height
    longest, shortest = max(width, height), min(width, height)
    factors = {
        "fw": lambda: wide / width,
        "fh": lambda: wide / height,
        "fwfh": lambda: min(wide / width, high / height),
        "fwfh2": lambda: max(wide / width, high / height),
        "both": lambda: max(wide / width, high / height),
        "max": lambda: wide / longest,
        "min": lambda: wide / shortest,
        "sq": lambda: wide / shortest,
        "scale": lambda: wide / 100,
        "fxfn": lambda: min(wide / longest, high / shortest),
        "fxfn2": lambda: max(wide / longest, high / shortest),
    }
    return factors[key]()


def _at_least_one(width: float, height: float) -> tuple[int, int]:
    return max(1, round(width)), max(1, round(height))


def _pixel_product(width: int, height: int, limit: int, *, force: bool) -> tuple[int, int]:
    factor = math.sqrt(limit / (width * height))
    if factor >= 1 and not force:
        return width, height
    wide, high = max(1, math.floor(width * factor)), max(1, math.floor(height * factor))
    while wide * high > limit and (wide > 1 or high > 1):  # floor may still overshoot by one
        wide, high = max(1, wide - 1), max(1, round(height * (wide - 1) / width))
    return wide, high


def middle_crop(image: Image.Image, width: int, height: int) -> Image.Image:
    left, top = (image.width - width) // 2, (image.height - height) // 2
    return image.crop((left, top, left + width, top + height))


def cut(image: Image.Image, key: str, box: Box, gravity: str) -> Image.Image:
    """The part of `image` a crop or clip box names (see the module's reading)."""
    width = box.width or image.width - abs(box.x)
    height = box.height or image.height - abs(box.y)
    if width < 1 or height < 1:
        raise ImageParamError(key, f"the offsets {box.x},{box.y} leave nothing of the "
                                   f"{image.width}x{image.height} image")
    horizontal, vertical = GRAVITY[gravity]
    left = _anchor(horizontal, image.width, width) + box.x
    top = _anchor(vertical, image.height, height) + box.y
    right, bottom = min(image.width, left + width), min(image.height, top + height)
    left, top = max(0, left), max(0, top)
    if left >= right or top >= bottom:
        raise ImageParamError(key, f"the box {width}x{height} at {box.x},{box.y} from "
                                   f"{gravity} is outside the {image.width}x{image.height} "
                                   f"image")
    return image.crop((left, top, right, bottom))


def _anchor(where: str, outer: int, inner: int) -> int:
    if where == "start":
        return 0
    if where == "end":
        return outer - inner
    return (outer - inner) // 2


def rotated(image: Image.Image, degrees: str) -> Image.Image:
    if degrees in CLOCKWISE:
        return image.transpose(CLOCKWISE[degrees])
    if degrees == "360":
        return image
    return image.convert("RGBA").rotate(-int(degrees), resample=Image.Resampling.BICUBIC,
                                        expand=True, fillcolor=(255, 255, 255, 0))


def flipped(image: Image.Image, orientation: str) -> Image.Image:
    return image.transpose(FLIPS[orientation])


def rounded(image: Image.Image, radius: int) -> Image.Image:
    picture = image.convert("RGBA")
    mask = Image.new("L", picture.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, picture.width - 1, picture.height - 1),
                                           radius=radius, fill=255)
    picture.putalpha(ImageChops.multiply(picture.getchannel("A"), mask))
    return picture


def with_gradient(image: Image.Image, gradient: Gradient) -> Image.Image:
    picture = image.convert("RGBA")
    across = gradient.orientation in ("left,right", "right,left")
    length = picture.width if across else picture.height
    first, last = gradient.positions or (0, length)
    start, stop = opaque(gradient.start), opaque(gradient.stop)
    strip: list[tuple[int, int, int, int]] = []
    for at in range(length):
        share = min(1.0, max(0.0, (at - first) / (last - first)))
        red, green, blue, alpha = (round(a + (b - a) * share)
                                   for a, b in zip(start, stop, strict=True))
        strip.append((red, green, blue, alpha))
    if gradient.orientation in ("bottom,up", "right,left"):
        strip.reverse()  # measured from the side the gradient starts at
    line = Image.new("RGBA", (length, 1) if across else (1, length))
    line.putdata(strip)
    layer = line.resize(picture.size, Image.Resampling.NEAREST)
    return Image.alpha_composite(picture, layer)
