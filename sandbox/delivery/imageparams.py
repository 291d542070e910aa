"""URL-parameter image processing: `/<key>/<value>/...` read into one validated `Recipe`.

Parsing is separate from drawing (imaging.py) so that a bad value is refused before any image is
opened, with a message naming the key (content-delivery.md, "Image URLs"). The same parser checks
the custom versions when they are configured, so a version that would fail never gets published.

Decisions where the spec is silent:
- Keys may come in any order but each at most once; a key without a value, an unknown key, or
  two scaling keys (sq, fw, fh, fwfh, both, max, min, scale) in one URL are refused.
- Sizes are whole pixels from 1 to MAX_SIDE; offsets from 0 to MAX_SIDE.
- Switches (gifto, unsharp, compress, progressive) take only `true`.
- `cvscolor` needs `canvas` and `brdcolor` needs `border`: alone they would do nothing.
- `gaussblur/<radius>x<sigma>`: radius a whole number 0 to 50, sigma a number above 0 up to 50.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_SIDE = 10_000
MAX_BLUR = 50
SCALING_KEYS = ("sq", "fw", "fh", "fwfh", "both", "max", "min", "scale")
SWITCH_KEYS = ("gifto", "unsharp", "compress", "progressive")
OTHER_KEYS = ("rotate", "crop", "quality", "format", "gaussblur", "canvas", "cvscolor", "border",
              "brdcolor")
KEYS = SCALING_KEYS + SWITCH_KEYS + OTHER_KEYS
ROTATIONS = ("auto", "90", "180", "270")
FORMATS = ("jpg", "png", "webp")

_WHOLE = re.compile(r"[0-9]{1,6}")
_SIZE = re.compile(r"([0-9]{1,6})x([0-9]{1,6})")
_BOX = re.compile(r"([0-9]{1,6})x([0-9]{1,6})a([0-9]{1,6})a([0-9]{1,6})")
_BLUR = re.compile(r"([0-9]{1,3})x([0-9]{1,3}(?:\.[0-9]{1,3})?)")
_RGBA = re.compile(r"[0-9A-Fa-f]{8}")


class ImageParamError(ValueError):
    """A processing key or value the edge refuses (answered 400 naming the key)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


@dataclass(frozen=True)
class Box:
    """`<w>x<h>a<x>a<y>`: a rectangle of w x h whose top-left corner is (x, y)."""

    width: int
    height: int
    x: int
    y: int


@dataclass(frozen=True)
class Scaling:
    """One scaling key; `width`/`height` carry its numbers (`sq`, `max`, `min` and `scale`
    use `width` only)."""

    key: str
    width: int
    height: int = 0


Rgba = tuple[int, int, int, int]


@dataclass(frozen=True)
class Recipe:
    """Everything one image URL asks for; None / False means "not asked"."""

    scaling: Scaling | None = None
    gifto: bool = False
    rotate: str | None = None
    crop: Box | None = None
    unsharp: bool = False
    compress: bool = False
    quality: int | None = None
    format: str | None = None
    gaussblur: tuple[int, float] | None = None
    progressive: bool = False
    canvas: Box | None = None
    cvscolor: Rgba | None = None
    border: tuple[int, int] | None = None
    brdcolor: Rgba | None = None


def parse(text: str) -> Recipe:
    """`/fw/300/format/webp` (leading and trailing slashes optional) -> Recipe."""
    parts = text.strip("/").split("/")
    if parts == [""]:
        raise ImageParamError("parameters", "no processing key given after the separator")
    if len(parts) % 2:
        raise ImageParamError(parts[-1] or "parameters", "a key needs a value after it")
    values: dict[str, str] = {}
    for key, value in zip(parts[::2], parts[1::2], strict=True):
        if key not in KEYS:
            raise ImageParamError(key or "parameters",
                                  f"unknown processing key; known keys: {', '.join(KEYS)}")
        if key in values:
            raise ImageParamError(key, "given more than once")
        values[key] = value
    return _recipe(values)


def _recipe(values: dict[str, str]) -> Recipe:
    scaling_keys = [key for key in values if key in SCALING_KEYS]
    if len(scaling_keys) > 1:
        raise ImageParamError(scaling_keys[1],
                              f"only one scaling key per URL, {scaling_keys[0]} is already given")
    if "cvscolor" in values and "canvas" not in values:
        raise ImageParamError("cvscolor", "only together with canvas")
    if "brdcolor" in values and "border" not in values:
        raise ImageParamError("brdcolor", "only together with border")
    switches = {key: _switch(key, values[key]) for key in SWITCH_KEYS if key in values}
    return Recipe(
        scaling=_scaling(scaling_keys[0], values[scaling_keys[0]]) if scaling_keys else None,
        rotate=_choice("rotate", values.get("rotate"), ROTATIONS),
        crop=_box("crop", values.get("crop")),
        quality=_whole("quality", values["quality"], 1, 99) if "quality" in values else None,
        format=_choice("format", values.get("format"), FORMATS),
        gaussblur=_blur(values.get("gaussblur")),
        canvas=_box("canvas", values.get("canvas")),
        cvscolor=_rgba("cvscolor", values.get("cvscolor")),
        border=_size("border", values["border"], minimum=0) if "border" in values else None,
        brdcolor=_rgba("brdcolor", values.get("brdcolor")),
        **switches,
    )


def _whole(key: str, value: str, minimum: int, maximum: int) -> int:
    if not _WHOLE.fullmatch(value) or not minimum <= int(value) <= maximum:
        raise ImageParamError(key, f"must be a whole number from {minimum} to {maximum}, "
                                   f"got {value!r}")
    return int(value)


def _size(key: str, value: str, *, minimum: int = 1) -> tuple[int, int]:
    found = _SIZE.fullmatch(value)
    if found is None:
        raise ImageParamError(key, f"must be <width>x<height>, got {value!r}")
    width, height = int(found[1]), int(found[2])
    for number in (width, height):
        if not minimum <= number <= MAX_SIDE:
            raise ImageParamError(key, f"width and height must be from {minimum} to {MAX_SIDE}, "
                                       f"got {value!r}")
    return width, height


def _scaling(key: str, value: str) -> Scaling:
    if key in ("fwfh", "both"):
        width, height = _size(key, value)
        return Scaling(key, width, height)
    if key == "scale":
        return Scaling(key, _whole(key, value, 1, 99))
    return Scaling(key, _whole(key, value, 1, MAX_SIDE))


def _switch(key: str, value: str) -> bool:
    if value != "true":
        raise ImageParamError(key, f"the only value is true, got {value!r}")
    return True


def _choice(key: str, value: str | None, choices: tuple[str, ...]) -> str | None:
    if value is not None and value not in choices:
        raise ImageParamError(key, f"must be one of {', '.join(choices)}, got {value!r}")
    return value


def _box(key: str, value: str | None) -> Box | None:
    if value is None:
        return None
    found = _BOX.fullmatch(value)
    if found is None:
        raise ImageParamError(key, f"must be <width>x<height>a<x>a<y>, got {value!r}")
    width, height, x, y = (int(group) for group in found.groups())
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ImageParamError(key, f"width and height must be from 1 to {MAX_SIDE}, "
                                   f"got {value!r}")
    if x > MAX_SIDE or y > MAX_SIDE:
        raise ImageParamError(key, f"x and y must be from 0 to {MAX_SIDE}, got {value!r}")
    return Box(width, height, x, y)


def _blur(value: str | None) -> tuple[int, float] | None:
    if value is None:
        return None
    found = _BLUR.fullmatch(value)
    if found is None:
        raise ImageParamError("gaussblur", f"must be <radius>x<sigma>, got {value!r}")
    radius, sigma = int(found[1]), float(found[2])
    if radius > MAX_BLUR:
        raise ImageParamError("gaussblur", f"radius must be from 0 to {MAX_BLUR}, got {radius}")
    if not 0 < sigma <= MAX_BLUR:
        raise ImageParamError("gaussblur",
                              f"sigma must be above 0 and at most {MAX_BLUR}, got {found[2]}")
    return radius, sigma


def _rgba(key: str, value: str | None) -> Rgba | None:
    if value is None:
        return None
    if not _RGBA.fullmatch(value):
        raise ImageParamError(key, f"must be RRGGBBAA in hexadecimal (alpha 00 to FF), "
                                   f"got {value!r}")
    red, green, blue, alpha = (int(value[index:index + 2], 16) for index in range(0, 8, 2))
    return red, green, blue, alpha
