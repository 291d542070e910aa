"""The value shapes of cloud/image.md's processing keys, read and range-checked.

Each reader takes the key (for the message) and the text after it, and raises ImageParamError
naming the key when the text is not of the page's shape or out of its range. `imageparams.py`
says which key takes which shape.

Shapes (the page's):
- whole numbers (`/fw/300`), sizes `<w>x<h>` (`/fwfh/300x200`);
- boxes `<w>x<h>a<x>a<y>` where each offset is `a<n>` (towards east / south) or `s<n>`
  (towards west / north), the page's crop and clip (`300x200a80s60`); a canvas may leave the
  offsets out (`600x400`: the image in the middle);
- colours `RRGGBB` and `RRGGBBAA`, AA being transparency (00 opaque, FF invisible);
- booleans `true` / `false`;
- Base64 with `/` written `|` (watermark texts and paths).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

MAX_SIDE = 10_000  # a size or offset beyond this is refused: memory, not the page
MAX_BLUR = 50

_WHOLE = re.compile(r"[0-9]{1,8}")
_SIZE = re.compile(r"([0-9]{1,6})x([0-9]{1,6})")
_BOX = re.compile(r"([0-9]{1,6})x([0-9]{1,6})(?:([as])([0-9]{1,6})([as])([0-9]{1,6}))?")
_BLUR = re.compile(r"([0-9]{1,3})x([0-9]{1,3})")
_RGBA = re.compile(r"[0-9A-Fa-f]{8}")
_RGB = re.compile(r"[0-9A-Fa-f]{6}")
_BASE64 = re.compile(r"[A-Za-z0-9+|_=-]+")
_POSITIONS = re.compile(r"([0-9]{1,6}),([0-9]{1,6})")

Rgba = tuple[int, int, int, int]


class ImageParamError(ValueError):
    """A processing key or value refused (the edge answers 400 naming the key, an upload
    40011035 invalid param in thumb)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.message = message


@dataclass(frozen=True)
class Box:
    """`<w>x<h>a<x>a<y>`: a rectangle of w x h, offset (x, y) from where its gravity puts it
    (negative: towards west / north). A width or height of 0 is "up to the image's edge";
    `centred` is a canvas without offsets."""

    width: int
    height: int
    x: int = 0
    y: int = 0
    centred: bool = False


def whole(key: str, value: str, minimum: int, maximum: int) -> int:
    if not _WHOLE.fullmatch(value) or not minimum <= int(value) <= maximum:
        raise ImageParamError(key, f"must be a whole number from {minimum} to {maximum}, "
                                   f"got {value!r}")
    return int(value)


def size(key: str, value: str, *, minimum: int = 1) -> tuple[int, int]:
    found = _SIZE.fullmatch(value)
    if found is None:
        raise ImageParamError(key, f"must be <width>x<height>, got {value!r}")
    width, height = int(found[1]), int(found[2])
    if not (minimum <= width <= MAX_SIDE and minimum <= height <= MAX_SIDE):
        raise ImageParamError(key, f"width and height must be from {minimum} to {MAX_SIDE}, "
                                   f"got {value!r}")
    return width, height


def box(key: str, value: str, *, offsets_optional: bool = False,
        zero_size: bool = False) -> Box:
    """A crop or clip box (`zero_size`: 0 means up to the image's edge), or a canvas
    (`offsets_optional`: without them the image is centred)."""
    found = _BOX.fullmatch(value)
    if found is None or (found[3] is None and not offsets_optional):
        shape = "<width>x<height>[a|s]<x>[a|s]<y>"
        raise ImageParamError(key, f"must be {shape}, got {value!r}")
    width, height = int(found[1]), int(found[2])
    low = 0 if zero_size else 1
    if not (low <= width <= MAX_SIDE and low <= height <= MAX_SIDE):
        raise ImageParamError(key, f"width and height must be from {low} to {MAX_SIDE}, "
                                   f"got {value!r}")
    if found[3] is None:
        return Box(width, height, centred=True)
    x, y = int(found[4]), int(found[6])
    if x > MAX_SIDE or y > MAX_SIDE:
        raise ImageParamError(key, f"the offsets must be from 0 to {MAX_SIDE}, got {value!r}")
    return Box(width, height, x if found[3] == "a" else -x, y if found[5] == "a" else -y)


def boolean(key: str, value: str) -> bool:
    if value not in ("true", "false"):
        raise ImageParamError(key, f"must be true or false, got {value!r}")
    return value == "true"


def choice(key: str, value: str | None, choices: tuple[str, ...]) -> str | None:
    if value is not None and value not in choices:
        raise ImageParamError(key, f"must be one of {', '.join(choices)}, got {value!r}")
    return value


def blur(value: str) -> tuple[int, int]:
    """`<radius>x<sigma>`: the page's radius 0-50 (0: from sigma) and sigma a positive whole
    number (ours: at most 50)."""
    found = _BLUR.fullmatch(value)
    if found is None:
        raise ImageParamError("gaussblur", f"must be <radius>x<sigma>, got {value!r}")
    radius, sigma = int(found[1]), int(found[2])
    if radius > MAX_BLUR:
        raise ImageParamError("gaussblur", f"radius must be from 0 to {MAX_BLUR}, got {radius}")
    if not 1 <= sigma <= MAX_BLUR:
        raise ImageParamError("gaussblur", f"sigma must be from 1 to {MAX_BLUR}, got {sigma}")
    return radius, sigma


def rgb(key: str, value: str) -> tuple[int, int, int]:
    if not _RGB.fullmatch(value):
        raise ImageParamError(key, f"must be RRGGBB in hexadecimal, got {value!r}")
    red, green, blue = (int(value[index:index + 2], 16) for index in range(0, 6, 2))
    return red, green, blue


def rgba(key: str, value: str) -> Rgba:
    """RRGGBBAA as written: AA is transparency (00 opaque, FF invisible), as the page says."""
    if not _RGBA.fullmatch(value):
        raise ImageParamError(key, f"must be RRGGBBAA in hexadecimal (AA transparency, 00 "
                                   f"opaque to FF invisible), got {value!r}")
    red, green, blue, alpha = (int(value[index:index + 2], 16) for index in range(0, 8, 2))
    return red, green, blue, alpha


def is_rgba(value: str) -> bool:
    return _RGBA.fullmatch(value) is not None


def opaque(colour: Rgba) -> Rgba:
    """A page colour (AA transparency) as Pillow's RGBA (A opacity)."""
    return colour[0], colour[1], colour[2], 255 - colour[3]


def positions(key: str, value: str) -> tuple[int, int]:
    """`<start>,<end>` in pixels, start before end (the gradient's `gdpos`)."""
    found = _POSITIONS.fullmatch(value)
    if found is None or int(found[1]) >= int(found[2]) or int(found[2]) > MAX_SIDE:
        raise ImageParamError(key, f"must be <start>,<end> in pixels with start < end <= "
                                   f"{MAX_SIDE}, got {value!r}")
    return int(found[1]), int(found[2])


def text64(key: str, value: str) -> str:
    """cloud/image.md: Base64 with `/` written `|`; URL-safe letters and missing padding are
    taken too. The result must be UTF-8."""
    if not _BASE64.fullmatch(value):
        raise ImageParamError(key, f"must be Base64 (with | for /), got {value!r}")
    standard = value.replace("|", "/").replace("-", "+").replace("_", "/").rstrip("=")
    try:
        raw = base64.b64decode(standard + "=" * (-len(standard) % 4), validate=True)
        return raw.decode("utf-8")
    except (binascii.Error, ValueError):
        raise ImageParamError(key, f"must be Base64 (with | for /) of UTF-8 text, "
                                   f"got {value!r}") from None
