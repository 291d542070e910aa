"""The legacy `x-gmkerl-*` upload preprocessing headers, read into one validated value.

Parsing is separate from drawing (`imaging.py`) so that every bad value is refused before the
body is read, with the code the error table gives that header (40011035 for a header without
one). Defaults are the spec's.

`x-gmkerl-thumb` (a processing string or a version, `thumb.py`) and the legacy version header
`x-gmkerl-thumbnail` are kept as text here and drawn by `thumb.py`; the theme-colour headers
take the values of cloud/image.md (`theme_colour.py`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import unquote

from sandbox.storage import errors, theme_colour, thumb
from sandbox.storage.errors import StorageError
from sandbox.storage.values import is_whole

PREFIX = "x-gmkerl-"
MAX_SIDE = 10_000  # a result larger than this on a side is refused (memory, not the spec)
THUMBNAIL_TYPES = ("fix_width", "fix_height", "fix_width_or_height", "fix_both", "fix_max",
                   "fix_min", "fix_scale")
TWO_SIDED_TYPES = ("fix_width_or_height", "fix_both")
FONTS = ("simsun", "simhei", "simkai", "simli", "simyou", "simfang")
VALIGNS = ("top", "middle", "bottom")
HALIGNS = ("left", "center", "right")
EXTRACT_FORMATS = theme_colour.FORMATS
# Keys that only ask for something besides drawing: without any other, the image is not redrawn.
NOT_DRAWING = {"thumb", "thumbnail", "extract-color-count", "extract-format"}
KNOWN = {
    "extract-color-count", "extract-format", "thumbnail", "thumb", "type", "value", "quality",
    "unsharp", "rotate", "crop", "exif-switch", "watermark-text", "watermark-font",
    "watermark-size", "watermark-align", "watermark-margin", "watermark-opacity",
    "watermark-color", "watermark-border",
}
_SIZE = re.compile(r"([0-9]+)x([0-9]+)")
_CROP = re.compile(r"([0-9]+)x([0-9]+)a([0-9]+)a([0-9]+)")
_RGB = re.compile(r"#?([0-9a-fA-F]{6})")
_RGBA = re.compile(r"#?([0-9a-fA-F]{8})")


@dataclass(frozen=True)
class Thumbnail:
    kind: str
    width: int = 0  # fix_width, fix_width_or_height, fix_both
    height: int = 0  # fix_height, fix_width_or_height, fix_both
    number: int = 0  # fix_max, fix_min (pixels), fix_scale (percent)


@dataclass(frozen=True)
class Crop:
    width: int
    height: int
    x: int
    y: int


@dataclass(frozen=True)
class Watermark:
    text: str
    font: str = "simsun"
    size: int = 32
    valign: str = "top"
    halign: str = "left"
    margin_x: int = 20
    margin_y: int = 20
    opacity: int = 0  # percent of transparency: 0 opaque, 100 invisible
    color: tuple[int, int, int] = (0, 0, 0)
    border: tuple[int, int, int, int] | None = None


@dataclass(frozen=True)
class Preprocessing:
    thumbnail: Thumbnail | None = None
    quality: int = 95
    unsharp: bool = True
    rotate: str | int | None = None  # "auto" or clockwise degrees 1..360
    crop: Crop | None = None
    keep_exif: bool = False
    watermark: Watermark | None = None
    extract_color_count: int = theme_colour.DEFAULT_COLOURS
    extract_format: str = theme_colour.DEFAULT_FORMAT
    extract: bool = False  # theme colours asked for
    thumb: str | None = None  # x-gmkerl-thumb, or the version of x-gmkerl-thumbnail
    drawing: bool = True  # a legacy drawing header was given (else the image is not redrawn)

    @property
    def exif_kept(self) -> bool:
        """The spec: the EXIF switch is effective only together with crop or a thumbnail."""
        return self.keep_exif and (self.crop is not None or self.thumbnail is not None)


def fail(header: str, message: str) -> StorageError:
    return errors.gmkerl_error(header, message)


def parse(headers: Mapping[str, str]) -> Preprocessing | None:
    """The preprocessing a request asks for, or None when it carries no x-gmkerl-* header."""
    given = {name.lower()[len(PREFIX):]: value.strip() for name, value in headers.items()
             if name.lower().startswith(PREFIX)}
    if not given:
        return None
    unknown = sorted(set(given) - KNOWN)
    if unknown:
        raise fail(unknown[0], "is not a preprocessing header")
    if "thumb" in given and "thumbnail" in given:
        raise fail("thumbnail", "give either x-gmkerl-thumb or x-gmkerl-thumbnail, not both")
    processing = given.get("thumb", given.get("thumbnail"))
    if processing is not None:
        thumb.check(processing)
    return Preprocessing(
        thumb=processing,
        drawing=bool(set(given) - NOT_DRAWING),
        extract=bool({"extract-color-count", "extract-format"} & set(given)),
        thumbnail=thumbnail(given.get("type"), given.get("value")),
        quality=integer(given, "quality", 1, 100, 95),
        unsharp=boolean(given, "unsharp", True),
        rotate=rotation(given.get("rotate")),
        crop=crop(given.get("crop")),
        keep_exif=boolean(given, "exif-switch", False),
        watermark=watermark(given),
        extract_color_count=integer(given, "extract-color-count", 1, theme_colour.MAX_COLOURS,
                                    theme_colour.DEFAULT_COLOURS),
        extract_format=one_of(given, "extract-format", EXTRACT_FORMATS,
                              theme_colour.DEFAULT_FORMAT),
    )


def integer(given: Mapping[str, str], header: str, low: int, high: int, default: int) -> int:
    raw = given.get(header)
    if raw is None:
        return default
    if not is_whole(raw) or not low <= int(raw) <= high:
        raise fail(header, f"must be a whole number from {low} to {high}, got {raw!r}")
    return int(raw)


def boolean(given: Mapping[str, str], header: str, default: bool) -> bool:
    raw = given.get(header)
    if raw is None:
        return default
    if raw.lower() not in ("true", "false"):
        raise fail(header, f"must be true or false, got {raw!r}")
    return raw.lower() == "true"


def one_of(given: Mapping[str, str], header: str, choices: tuple[str, ...], default: str) -> str:
    raw = given.get(header)
    if raw is None:
        return default
    if raw.lower() not in choices:
        raise fail(header, f"must be one of {', '.join(choices)}, got {raw!r}")
    return raw.lower()


def side(header: str, raw: str, high: int = MAX_SIDE) -> int:
    if not is_whole(raw) or not 1 <= int(raw) <= high:
        raise fail(header, f"must be a whole number from 1 to {high}, got {raw!r}")
    return int(raw)


def thumbnail(kind: str | None, value: str | None) -> Thumbnail | None:
    if kind is None and value is None:
        return None
    if kind is None:
        raise fail("value", "needs x-gmkerl-type")
    if kind not in THUMBNAIL_TYPES:
        raise fail("type", f"must be one of {', '.join(THUMBNAIL_TYPES)}, got {kind!r}")
    if value is None:
        raise fail("value", f"is required with x-gmkerl-type {kind}")
    if kind in TWO_SIDED_TYPES:
        match = _SIZE.fullmatch(value)
        if not match:
            raise fail("value", f"must be <width>x<height> for {kind}, got {value!r}")
        return Thumbnail(kind, width=side("value", match[1]), height=side("value", match[2]))
    if kind == "fix_scale":
        return Thumbnail(kind, number=side("value", value, 1000))
    if kind == "fix_width":
        return Thumbnail(kind, width=side("value", value))
    if kind == "fix_height":
        return Thumbnail(kind, height=side("value", value))
    return Thumbnail(kind, number=side("value", value))


def rotation(raw: str | None) -> str | int | None:
    if raw is None:
        return None
    if raw.lower() == "auto":
        return "auto"
    if not is_whole(raw) or not 1 <= int(raw) <= 360:
        raise fail("rotate", f"must be auto or whole degrees in (0, 360], got {raw!r}")
    return int(raw)


def crop(raw: str | None) -> Crop | None:
    if raw is None:
        return None
    match = _CROP.fullmatch(raw)
    if not match:
        raise fail("crop", f"must be <width>x<height>a<x>a<y>, got {raw!r}")
    width, height, x, y = (int(group) for group in match.groups())
    if width < 1 or height < 1:
        raise fail("crop", "width and height must be at least 1")
    return Crop(width, height, x, y)


def watermark(given: Mapping[str, str]) -> Watermark | None:
    """Every watermark header is validated; the watermark is drawn only when a text is given."""
    font = one_of(given, "watermark-font", FONTS, "simsun")
    size = integer(given, "watermark-size", 1, 1000, 32)
    valign, halign = alignment(given.get("watermark-align", "top,left"))
    margin_x, margin_y = margin(given.get("watermark-margin", "20,20"))
    opacity = integer(given, "watermark-opacity", 0, 100, 0)
    color = rgb(given.get("watermark-color", "#000000"))
    border = rgba(given["watermark-border"]) if "watermark-border" in given else None
    raw_text = given.get("watermark-text")
    if raw_text is None:
        return None
    try:
        text = unquote(raw_text, errors="strict")
    except UnicodeDecodeError:
        raise fail("watermark-text", "is not URL-encoded UTF-8") from None
    if not text.strip():
        raise fail("watermark-text", "is empty")
    return Watermark(text=text, font=font, size=size, valign=valign, halign=halign,
                     margin_x=margin_x, margin_y=margin_y, opacity=opacity, color=color,
                     border=border)


def alignment(raw: str) -> tuple[str, str]:
    parts = [part.strip().lower() for part in raw.split(",")]
    if len(parts) != 2 or parts[0] not in VALIGNS or parts[1] not in HALIGNS:
        raise fail("watermark-align", f"must be <{'|'.join(VALIGNS)}>,<{'|'.join(HALIGNS)}>, "
                                      f"got {raw!r}")
    return parts[0], parts[1]


def margin(raw: str) -> tuple[int, int]:
    parts = [part.strip() for part in raw.split(",")]
    if len(parts) != 2 or not all(is_whole(part) and int(part) <= MAX_SIDE for part in parts):
        raise fail("watermark-margin", f"must be <x>,<y> in pixels (0 to {MAX_SIDE}), "
                                       f"got {raw!r}")
    return int(parts[0]), int(parts[1])


def rgb(raw: str) -> tuple[int, int, int]:
    match = _RGB.fullmatch(raw)
    if not match:
        raise fail("watermark-color", f"must be an RGB colour such as #1a2b3c, got {raw!r}")
    value = match[1]
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def rgba(raw: str) -> tuple[int, int, int, int]:
    match = _RGBA.fullmatch(raw)
    if not match:
        raise fail("watermark-border", f"must be an RGBA colour such as #1a2b3cff, got {raw!r}")
    value = match[1]
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16),
            int(value[6:8], 16))
