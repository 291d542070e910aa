"""URL-parameter image processing: `/<key>/<value>/...` read into one validated `Recipe`.

Parsing is separate from drawing (imaging.py) so that a bad value is refused before any image is
opened, with a message naming the key (content-delivery.md, "Image URLs"; cloud/image.md, which
DECISIONS.md makes normative). The same parser checks the custom versions when they are
configured, so a version that would fail never gets published.

From cloud/image.md:
- `/scale/<1..1000>`: above 100 enlarges. `/force/true` lets fw, fh, fwfh, max and min enlarge;
  without it they never make an image larger (sq, both and scale always give what they say).
- Watermarks: `/watermark/text/<text>` or `/watermark/url/<path>`, the value Base64 with `/`
  written `|`, followed by their own keys: both take align, margin, opacity, animate; the text
  takes font, size, color, border (`RRGGBBAA`); the image percent and repeat. Repeating
  `/watermark/...` starts another watermark; a watermark key belongs to the watermark before it.
- Image information: `/info` (width, height, type, frames as JSON), `/meta` (and EXIF),
  `/meta/iptc` (and IPTC), `/meta/all` (both). These take no value.
- A version name followed by parameters (`photo.jpg!small/fw/80`): `with_version` takes the
  version's keys, then the URL's, which replace the version's of the same key (any scaling key
  the version's scaling key; watermarks are added after the version's).

Decisions where the spec is silent:
- Keys may come in any order but each at most once (a watermark's keys once per watermark); a
  key without a value, an unknown key, or two scaling keys (sq, fw, fh, fwfh, both, max, min,
  scale) in one URL are refused.
- Sizes are whole pixels from 1 to MAX_SIDE; offsets from 0 to MAX_SIDE.
- Switches (gifto, unsharp, compress, progressive, force, and a watermark's animate and repeat)
  take only `true`.
- `cvscolor` needs `canvas`, `brdcolor` needs `border` and `force` a scaling key: alone they
  would do nothing.
- `gaussblur/<radius>x<sigma>`: radius a whole number 0 to 50, sigma a number above 0 up to 50.
- `border` right after a text watermark's keys is the watermark's when its value is `RRGGBBAA`,
  the image's border (`<w>x<h>`) otherwise.
- At most MAX_WATERMARKS watermarks; a text of at most MAX_TEXT characters, a size of 1 to
  MAX_TEXT_SIZE pixels.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field

MAX_SIDE = 10_000
MAX_BLUR = 50
MAX_SCALE = 1000
MAX_WATERMARKS = 5
MAX_TEXT = 200
MAX_TEXT_SIZE = 1000
SCALING_KEYS = ("sq", "fw", "fh", "fwfh", "both", "max", "min", "scale")
# The scaling keys that enlarge only with `/force/true`.
FORCED_KEYS = ("fw", "fh", "fwfh", "max", "min")
SWITCH_KEYS = ("gifto", "unsharp", "compress", "progressive", "force")
OTHER_KEYS = ("rotate", "crop", "quality", "format", "gaussblur", "canvas", "cvscolor", "border",
              "brdcolor")
INFO_KEYS = ("info", "meta")
META_VALUES = ("iptc", "all")
WATERMARK = "watermark"
WATERMARK_KINDS = ("text", "url")
# The keys that follow a watermark, and which kinds take them.
WATERMARK_KEYS: dict[str, tuple[str, ...]] = {
    "align": ("text", "url"), "margin": ("text", "url"), "opacity": ("text", "url"),
    "animate": ("text", "url"), "font": ("text",), "size": ("text",), "color": ("text",),
    "border": ("text",), "percent": ("url",), "repeat": ("url",),
}
KEYS = SCALING_KEYS + SWITCH_KEYS + OTHER_KEYS + INFO_KEYS + (WATERMARK,) + tuple(
    key for key in WATERMARK_KEYS if key not in OTHER_KEYS)
ROTATIONS = ("auto", "90", "180", "270")
FORMATS = ("jpg", "png", "webp")
GRAVITIES = ("northwest", "north", "northeast", "west", "center", "east", "southwest", "south",
             "southeast")
FONTS = ("simsun", "simhei", "simkai", "simli", "simyou", "simfang", "sc", "tc", "arial",
         "georgia", "helvetica", "roman")

_WHOLE = re.compile(r"[0-9]{1,6}")
_SIZE = re.compile(r"([0-9]{1,6})x([0-9]{1,6})")
_BOX = re.compile(r"([0-9]{1,6})x([0-9]{1,6})a([0-9]{1,6})a([0-9]{1,6})")
_BLUR = re.compile(r"([0-9]{1,3})x([0-9]{1,3}(?:\.[0-9]{1,3})?)")
_RGBA = re.compile(r"[0-9A-Fa-f]{8}")
_RGB = re.compile(r"[0-9A-Fa-f]{6}")
_BASE64 = re.compile(r"[A-Za-z0-9+|_=-]+")


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
class Watermark:
    """One `/watermark/text/...` or `/watermark/url/...` with its keys (cloud/image.md's
    defaults): `text` is the decoded text, `path` the decoded path of the image in the same
    storage service. `border` is the text's outline, None for none (the default, FFFFFFFF, is
    fully transparent)."""

    kind: str
    text: str = ""
    path: str = ""
    align: str = "northwest"
    margin: tuple[int, int] = (20, 20)
    opacity: int = 100
    animate: bool = False
    font: str = "simsun"
    size: int = 32
    color: tuple[int, int, int] = (0, 0, 0)
    border: Rgba | None = None
    percent: int = 0
    repeat: bool = False


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
    force: bool = False
    watermarks: tuple[Watermark, ...] = ()
    # "info", "meta", "meta/iptc" or "meta/all": answer the result's information as JSON.
    info: str | None = None


@dataclass
class _Keys:
    """A processing text read but not yet checked: the plain keys with their values, in order,
    and each watermark's kind, encoded value and keys."""

    plain: dict[str, str] = field(default_factory=dict)
    watermarks: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)


def parse(text: str) -> Recipe:
    """`/fw/300/format/webp` (leading and trailing slashes optional) -> Recipe."""
    return _recipe(_read(text))


def with_version(version: str, text: str) -> Recipe:
    """A version's processing text with the URL's parameters after it (`!small/fw/80`): the
    URL's keys replace the version's (cloud/image.md: parameters win over the version)."""
    base, extra = _read(version), _read(text)
    if any(key in SCALING_KEYS for key in extra.plain):
        base.plain = {key: value for key, value in base.plain.items()
                      if key not in SCALING_KEYS}
    base.plain.update(extra.plain)
    base.watermarks.extend(extra.watermarks)
    return _recipe(base)


def _read(text: str) -> _Keys:
    parts = text.strip("/").split("/")
    if parts == [""]:
        raise ImageParamError("parameters", "no processing key given after the separator")
    found = _Keys()
    index = 0
    while index < len(parts):
        key = parts[index]
        if key == "info":
            _once(found.plain, "info", "info")
            index += 1
            continue
        if key == "meta":
            value = parts[index + 1] if index + 1 < len(parts) else ""
            if value in META_VALUES:
                _once(found.plain, "info", f"meta/{value}")
                index += 2
            else:
                _once(found.plain, "info", "meta")
                index += 1
            continue
        if key not in KEYS:
            raise ImageParamError(key or "parameters",
                                  f"unknown processing key; known keys: {', '.join(KEYS)}")
        if key == WATERMARK:
            if index + 2 >= len(parts):
                raise ImageParamError(WATERMARK, "must be /watermark/text/<Base64 text> or "
                                                 "/watermark/url/<Base64 path>")
            kind, value = parts[index + 1], parts[index + 2]
            if kind not in WATERMARK_KINDS:
                raise ImageParamError(WATERMARK, f"must be followed by text or url, got {kind!r}")
            if len(found.watermarks) == MAX_WATERMARKS:
                raise ImageParamError(WATERMARK, f"at most {MAX_WATERMARKS} watermarks")
            found.watermarks.append((kind, value, {}))
            index += 3
            continue
        if index + 1 >= len(parts):
            raise ImageParamError(key, "a key needs a value after it")
        value = parts[index + 1]
        index += 2
        if _is_watermark_key(found, key, value):
            kind, _encoded, keys = found.watermarks[-1]
            if kind not in WATERMARK_KEYS[key]:
                other = "text" if kind == "url" else "url"
                raise ImageParamError(key, f"only for /watermark/{other}/..., not after "
                                           f"/watermark/{kind}/...")
            if key in keys:
                raise ImageParamError(key, "given more than once for this watermark")
            keys[key] = value
            continue
        if key in WATERMARK_KEYS and key not in OTHER_KEYS:
            raise ImageParamError(key, "only after /watermark/text/... or /watermark/url/...")
        _once(found.plain, key, value)
    return found


def _is_watermark_key(found: _Keys, key: str, value: str) -> bool:
    """Whether `key` belongs to the watermark before it; `border` does only as an RRGGBBAA
    after a text watermark (else it is the image's `<w>x<h>` border)."""
    if key not in WATERMARK_KEYS or not found.watermarks:
        return False
    if key == "border":
        return found.watermarks[-1][0] == "text" and _RGBA.fullmatch(value) is not None
    return True


def _once(values: dict[str, str], key: str, value: str) -> None:
    if key in values:
        raise ImageParamError(key, "given more than once")
    values[key] = value


def _recipe(found: _Keys) -> Recipe:
    values = found.plain
    scaling_keys = [key for key in values if key in SCALING_KEYS]
    if len(scaling_keys) > 1:
        raise ImageParamError(scaling_keys[1],
                              f"only one scaling key per URL, {scaling_keys[0]} is already given")
    if "cvscolor" in values and "canvas" not in values:
        raise ImageParamError("cvscolor", "only together with canvas")
    if "brdcolor" in values and "border" not in values:
        raise ImageParamError("brdcolor", "only together with border")
    if "force" in values and not scaling_keys:
        raise ImageParamError("force", f"only together with a scaling key "
                                       f"({', '.join(FORCED_KEYS)})")
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
        watermarks=tuple(_watermark(kind, encoded, keys)
                         for kind, encoded, keys in found.watermarks),
        info=values.get("info"),
        **switches,
    )


def _watermark(kind: str, encoded: str, keys: dict[str, str]) -> Watermark:
    decoded = _base64(f"watermark/{kind}", encoded)
    if kind == "url" and not decoded.startswith("/"):
        raise ImageParamError("watermark/url", f"must be the Base64 of a path starting with "
                                               f"/, got {decoded!r}")
    if kind == "text" and not decoded.strip():
        raise ImageParamError("watermark/text", "the text is empty")
    if len(decoded) > MAX_TEXT:
        raise ImageParamError(f"watermark/{kind}", f"at most {MAX_TEXT} characters")
    margin = _size("margin", keys["margin"], minimum=0) if "margin" in keys else (20, 20)
    return Watermark(
        kind=kind,
        text=decoded if kind == "text" else "",
        path=decoded if kind == "url" else "",
        align=_choice("align", keys.get("align"), GRAVITIES) or "northwest",
        margin=margin,
        opacity=_whole("opacity", keys["opacity"], 0, 100) if "opacity" in keys else 100,
        animate=_switch("animate", keys["animate"]) if "animate" in keys else False,
        font=_choice("font", keys.get("font"), FONTS) or "simsun",
        size=_whole("size", keys["size"], 1, MAX_TEXT_SIZE) if "size" in keys else 32,
        color=_rgb("color", keys["color"]) if "color" in keys else (0, 0, 0),
        border=_rgba("border", keys.get("border")),
        percent=_whole("percent", keys["percent"], 0, 100) if "percent" in keys else 0,
        repeat=_switch("repeat", keys["repeat"]) if "repeat" in keys else False,
    )


def _base64(key: str, value: str) -> str:
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


def _rgb(key: str, value: str) -> tuple[int, int, int]:
    if not _RGB.fullmatch(value):
        raise ImageParamError(key, f"must be RRGGBB in hexadecimal, got {value!r}")
    red, green, blue = (int(value[index:index + 2], 16) for index in range(0, 6, 2))
    return red, green, blue


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
        return Scaling(key, _whole(key, value, 1, MAX_SCALE))
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
