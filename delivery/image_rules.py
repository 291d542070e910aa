"""Image processing strings (cloud/image.md, "功能"; content-delivery.md, "Image URLs"): every key
of the page with the shape and range of its value, and the rules between keys.

One rule for every processing string the back-office writes: the image builder and the custom
versions of the delivery pages, and the upload page's `x-gmkerl-thumb` (through
`delivery.services.thumb_problems`). Problems name their key, so pages translate them
(`delivery.texts`). The sandbox's edge checks the same strings with its own code; both are
tested against one table of the page's examples (tests/image_processing_examples.py).

Between keys (docs/decisions.md, "Image processing keys"): each key once (a watermark's keys
once per watermark), one scaling key, `force` only with one, `gravity` only after the crop or
clip it places, a colour or setting only with the key it belongs to (cvscolor canvas, brdcolor
border, exformat excolor, gdpos and the gradient's colours gdori, which needs both colours),
and `excolor` not with an information key (each is an answer of its own).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from delivery.problems import LinkError, Problem, problem, require

# Pixel sizes are not bounded by the page; we keep them to what an edge can sensibly produce.
MAX_PIXELS = 10000
MAX_BLUR = 50
_SIZE = re.compile(r"([0-9]+)x([0-9]+)")
_AREA = re.compile(r"([0-9]+)x([0-9]+)[as]([0-9]+)[as]([0-9]+)")
_COLOUR = re.compile(r"[0-9A-Fa-f]{8}")
_RGB = re.compile(r"[0-9A-Fa-f]{6}")
_INT = re.compile(r"[0-9]{1,9}")
_PAIR = re.compile(r"([0-9]{1,9}),([0-9]{1,9})")
_BASE64 = re.compile(r"[A-Za-z0-9+|_=-]+")


@dataclass(frozen=True)
class ImageKey:
    """One key of the page's table: `shape` picks the check of its value."""

    name: str
    shape: str
    resize: bool = False
    low: int = 1
    high: int = MAX_PIXELS
    choices: tuple[str, ...] = ()


GRAVITIES = ("northwest", "north", "northeast", "west", "center", "east", "southwest", "south",
             "southeast")
FONTS = ("simsun", "simhei", "simkai", "simli", "simyou", "simfang", "sc", "tc", "arial",
         "georgia", "helvetica", "roman")

# In the order the builder shows them and writes them (gravity after crop and clip, which it
# places).
IMAGE_KEYS: tuple[ImageKey, ...] = (
    ImageKey("sq", "number", resize=True),
    ImageKey("fw", "number", resize=True),
    ImageKey("fh", "number", resize=True),
    ImageKey("fwfh", "size", resize=True),
    ImageKey("fwfh2", "size", resize=True),
    ImageKey("both", "size", resize=True),
    ImageKey("max", "number", resize=True),
    ImageKey("min", "number", resize=True),
    ImageKey("fxfn", "size", resize=True),
    ImageKey("fxfn2", "size", resize=True),
    ImageKey("scale", "number", resize=True, high=1000),
    ImageKey("wscale", "number", resize=True, high=1000),
    ImageKey("hscale", "number", resize=True, high=1000),
    ImageKey("fp", "number", resize=True, high=25_000_000),
    ImageKey("force", "bool"),
    ImageKey("crop", "area"),
    ImageKey("clip", "area"),
    ImageKey("gravity", "choice", choices=GRAVITIES),
    ImageKey("roundrect", "number"),
    ImageKey("rotate", "angle"),
    ImageKey("flip", "choice", choices=("left,right", "top,down")),
    ImageKey("unsharp", "bool"),
    ImageKey("gaussblur", "blur", low=0, high=MAX_BLUR),
    ImageKey("border", "border"),
    ImageKey("brdcolor", "colour"),
    ImageKey("canvas", "canvas"),
    ImageKey("cvscolor", "colour"),
    ImageKey("gdori", "choice", choices=("top,down", "bottom,up", "left,right", "right,left")),
    ImageKey("gdpos", "positions"),
    ImageKey("gdstartcolor", "colour"),
    ImageKey("gdstopcolor", "colour"),
    ImageKey("format", "choice", choices=("jpg", "png", "webp")),
    ImageKey("lossless", "bool"),
    ImageKey("quality", "number", high=99),
    ImageKey("compress", "bool"),
    ImageKey("coalesce", "bool"),
    ImageKey("progressive", "bool"),
    ImageKey("noicc", "bool"),
    ImageKey("strip", "bool"),
    ImageKey("gifto", "bool"),
    ImageKey("exifswitch", "bool"),
    ImageKey("ignore-error", "bool"),
    ImageKey("excolor", "number", high=4096),
    ImageKey("exformat", "choice", choices=("dec", "hex")),
)
KEYS_BY_NAME: dict[str, ImageKey] = {key.name: key for key in IMAGE_KEYS}
# A setting means nothing without the key it belongs to.
NEEDS: dict[str, str] = {"cvscolor": "canvas", "brdcolor": "border", "exformat": "excolor",
                         "gdpos": "gdori", "gdstartcolor": "gdori", "gdstopcolor": "gdori"}
COLOURS = ("cvscolor", "brdcolor", "gdstartcolor", "gdstopcolor")
CUTS = ("crop", "clip")

# Image information: `/info`, `/meta`, `/meta/iptc`, `/meta/all` (pairs ("info", ""),
# ("meta", ""), ("meta", "iptc"), ("meta", "all")), at most one of them.
INFO_KEYS = ("info", "meta")
META_VALUES = ("", "iptc", "all")
# Watermarks: ("watermark", "text/<Base64>") or ("watermark", "url/<Base64 path>"), then its
# keys; a key belongs to the watermark before it (cloud/image.md, "水印").
WATERMARK = "watermark"
WATERMARK_KINDS = ("text", "url")
MAX_WATERMARKS = 5
MAX_WATERMARK_TEXT = 200
WATERMARK_KEYS: dict[str, ImageKey] = {key.name: key for key in (
    ImageKey("align", "choice", choices=GRAVITIES),
    ImageKey("margin", "size", low=0),
    ImageKey("opacity", "number", low=0, high=100),
    ImageKey("animate", "bool"),
    ImageKey("font", "choice", choices=FONTS),
    ImageKey("size", "number", low=1, high=1000),
    ImageKey("color", "rgb"),
    ImageKey("border", "colour"),
    ImageKey("percent", "number", low=0, high=100),
    ImageKey("repeat", "bool"),
)}
# Which watermarks take which keys.
WATERMARK_ONLY: dict[str, str] = {"font": "text", "size": "text", "color": "text",
                                  "border": "text", "percent": "url", "repeat": "url"}


def encode_watermark(value: str) -> str:
    """cloud/image.md: Base64 with `/` written `|` (a text, or the path of an image)."""
    return base64.b64encode(value.encode()).decode().replace("/", "|")


def decode_watermark(value: str) -> str | None:
    """The text or path of a watermark value, or None when it is not Base64 of UTF-8."""
    if not _BASE64.fullmatch(value):
        return None
    standard = value.replace("|", "/").replace("-", "+").replace("_", "/").rstrip("=")
    try:
        raw = base64.b64decode(standard + "=" * (-len(standard) % 4), validate=True)
        return raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None


def _in(low: int, high: int, *numbers: str) -> bool:
    return all(low <= int(number) <= high for number in numbers)


def _value_fits(key: ImageKey, value: str) -> bool:
    shape = key.shape
    if shape == "number":
        return bool(_INT.fullmatch(value)) and _in(key.low, key.high, value)
    if shape == "bool":
        return value in ("true", "false")
    if shape == "choice":
        return value in key.choices
    if shape in ("size", "border"):
        found = _SIZE.fullmatch(value)
        low = 0 if shape == "border" else key.low
        return found is not None and _in(low, MAX_PIXELS, *found.groups()) and not (
            shape == "border" and found.groups() == ("0", "0"))
    if shape == "area":  # crop and clip: 0 reaches the image's edge
        found = _AREA.fullmatch(value)
        return found is not None and _in(0, MAX_PIXELS, *found.groups())
    if shape == "canvas":  # the offsets may be left out: the image in the middle
        found = _AREA.fullmatch(value) or _SIZE.fullmatch(value)
        return found is not None and _in(1, MAX_PIXELS, found[1], found[2]) and _in(
            0, MAX_PIXELS, *found.groups()[2:])
    if shape == "colour":
        return bool(_COLOUR.fullmatch(value))
    if shape == "rgb":
        return bool(_RGB.fullmatch(value))
    if shape == "blur":
        found = _SIZE.fullmatch(value)
        return found is not None and _in(0, MAX_BLUR, found[1]) and _in(1, MAX_BLUR, found[2])
    if shape == "angle":
        return value == "auto" or (bool(_INT.fullmatch(value)) and _in(1, 360, value))
    if shape == "positions":
        found = _PAIR.fullmatch(value)
        return found is not None and int(found[1]) < int(found[2]) <= MAX_PIXELS
    raise ValueError(f"unknown shape {shape}")


# What each shape's problem says (code, English message): `delivery.texts` translates them.
SHAPE_PROBLEMS: dict[str, tuple[str, str]] = {
    "number": ("image_number", "must be a whole number from {low} to {high}"),
    "bool": ("image_bool", "must be true or false"),
    "choice": ("image_choice", "must be one of {choices}"),
    "size": ("image_size", "must be <width>x<height>, each from {low} to {high}"),
    "border": ("image_size", "must be <width>x<height>, each from {low} to {high}"),
    "area": ("image_area", "must be <width>x<height>a<x>a<y> (s instead of a for a negative "
                           "offset), e.g. 200x100a10a20"),
    "canvas": ("image_canvas", "must be <width>x<height> or <width>x<height>a<x>a<y> with a "
                               "positive width and height"),
    "colour": ("image_colour", "must be RRGGBBAA in hex, e.g. FFFFFF80"),
    "rgb": ("image_rgb", "must be RRGGBB in hex, e.g. FF0000"),
    "blur": ("image_blur", "must be <radius>x<sigma>, radius 0 to 50, sigma 1 to 50"),
    "angle": ("image_angle", "must be auto or whole degrees from 1 to 360"),
    "positions": ("image_positions", "must be <start>,<end> in pixels, start before end"),
}


def check_image_value(key: ImageKey, value: str) -> list[Problem]:
    """The value of one key, checked against the page's table (and our pixel bound)."""
    if _value_fits(key, value):
        return []
    code, message = SHAPE_PROBLEMS[key.shape]
    low = 0 if key.shape == "border" else key.low
    return [problem(key.name, code, message, low=low, high=key.high,
                    choices=", ".join(key.choices), value=value)]


@dataclass
class _Seen:
    keys: set[str]
    resizes: list[str]
    marks: int = 0
    mark: tuple[str, set[str]] | None = None  # the current watermark: kind, keys seen
    cut_before: bool = False  # a crop or clip came before (gravity places it)


def check_image_params(pairs: Sequence[tuple[str, str]]) -> list[Problem]:
    """Every key known and its value valid, then the rules between keys (module docstring)."""
    found: list[Problem] = []
    seen = _Seen(set(), [])
    for name, value in pairs:
        found.extend(_check_pair(name, value, seen))
    found.extend(_check_between(seen))
    if not pairs and not found:
        found.append(problem("params", "image_empty", "give at least one processing key"))
    return found


def _check_pair(name: str, value: str, seen: _Seen) -> list[Problem]:
    if name == WATERMARK:
        seen.marks += 1
        seen.mark = (value.partition("/")[0], set())
        return _check_watermark(value, seen.marks)
    if name in WATERMARK_KEYS and seen.mark is not None and (
            name != "border" or (seen.mark[0] == "text" and _COLOUR.fullmatch(value))):
        return _check_watermark_key(name, value, seen.mark)
    if name in WATERMARK_KEYS and name not in KEYS_BY_NAME:
        return [problem(name, "image_watermark_first",
                        "only after a watermark (watermark/text or watermark/url)")]
    if name in INFO_KEYS:
        twice = "info" in seen.keys
        seen.keys.add("info")
        if twice:
            return [problem(name, "image_twice", "is given twice")]
        if value not in (META_VALUES if name == "meta" else ("",)):
            return [problem(name, "image_choice", "must be one of {choices}",
                            choices="info, meta, meta/iptc, meta/all", value=value)]
        return []
    key = KEYS_BY_NAME.get(name)
    if key is None:
        return [problem(name or "params", "image_key", "is not a processing key", value=name)]
    if name in seen.keys:
        return [problem(name, "image_twice", "is given twice")]
    seen.keys.add(name)
    if key.resize:
        seen.resizes.append(name)
    if name == "gravity" and not seen.cut_before:
        return [problem(name, "image_after_cut", "only after crop or clip, which it places")]
    seen.cut_before = seen.cut_before or name in CUTS
    return check_image_value(key, value)


def _check_between(seen: _Seen) -> list[Problem]:
    found: list[Problem] = []
    if len(seen.resizes) > 1:
        found.append(problem(seen.resizes[1], "image_resizes", "only one of {keys} may be used",
                             keys=", ".join(seen.resizes)))
    for setting, owner in NEEDS.items():
        if setting in seen.keys and owner not in seen.keys:
            found.append(problem(setting, "image_needs", "needs {owner}", owner=owner))
    if "gdori" in seen.keys:
        found.extend(problem(colour, "image_gradient", "a gradient (gdori) needs it")
                     for colour in ("gdstartcolor", "gdstopcolor") if colour not in seen.keys)
    if "force" in seen.keys and not seen.resizes:
        found.append(problem("force", "image_needs", "needs {owner}",
                             owner="a size operation (fw, fh, fwfh, both, ...)"))
    if "excolor" in seen.keys and "info" in seen.keys:
        found.append(problem("excolor", "image_answers",
                             "the theme colours and the image information are two answers"))
    return found


def _check_watermark(value: str, count: int) -> list[Problem]:
    kind, _slash, encoded = value.partition("/")
    if count > MAX_WATERMARKS:
        return [problem(WATERMARK, "image_watermarks", "at most {limit} watermarks",
                        limit=MAX_WATERMARKS)]
    if kind not in WATERMARK_KINDS or not encoded:
        return [problem(WATERMARK, "image_watermark", "must be watermark/text/<Base64 text> "
                        "or watermark/url/<Base64 path>", value=value)]
    field_name = f"watermark/{kind}"
    decoded = decode_watermark(encoded)
    if decoded is None:
        return [problem(field_name, "image_base64", "must be Base64 (with | for /) of UTF-8 "
                        "text", value=encoded)]
    if kind == "url" and not decoded.startswith("/"):
        return [problem(field_name, "image_mark_path", "must be a path starting with /",
                        value=decoded)]
    if kind == "text" and not decoded.strip():
        return [problem(field_name, "image_mark_empty", "the text is empty")]
    if len(decoded) > MAX_WATERMARK_TEXT:
        return [problem(field_name, "image_mark_long", "at most {limit} characters",
                        limit=MAX_WATERMARK_TEXT)]
    return []


def _check_watermark_key(name: str, value: str, mark: tuple[str, set[str]]) -> list[Problem]:
    kind, keys = mark
    only = WATERMARK_ONLY.get(name)
    if only is not None and only != kind:
        return [problem(name, "image_mark_kind", "only for watermark/{kind}", kind=only)]
    if name in keys:
        return [problem(name, "image_twice", "is given twice")]
    keys.add(name)
    return check_image_value(WATERMARK_KEYS[name], value)


def parse_image_params(text: str) -> list[tuple[str, str]]:
    """`/fw/300/format/webp` -> [("fw", "300"), ("format", "webp")], checked; LinkError
    otherwise. The leading `/` may be left out. `/info` and `/meta` take no value
    (("info", ""), ("meta", "iptc")), `/watermark/text/<b64>` two (("watermark",
    "text/<b64>"))."""
    body = text.strip().removeprefix("/").removesuffix("/")
    parts = body.split("/") if body else []
    pairs: list[tuple[str, str]] = []
    index = 0
    while index < len(parts):
        name = parts[index]
        if name == "info":
            pairs.append(("info", ""))
            index += 1
        elif name == "meta":
            following = parts[index + 1] if index + 1 < len(parts) else ""
            value = following if following in ("iptc", "all") else ""
            pairs.append(("meta", value))
            index += 2 if value else 1
        elif name == WATERMARK:
            if index + 2 >= len(parts):
                raise LinkError([problem(WATERMARK, "image_watermark", "must be "
                                         "watermark/text/<Base64 text> or "
                                         "watermark/url/<Base64 path>",
                                         value="/".join(parts[index + 1:]))])
            pairs.append((WATERMARK, f"{parts[index + 1]}/{parts[index + 2]}"))
            index += 3
        elif index + 1 >= len(parts):
            raise LinkError([problem(name or "params", "image_odd", "must be /<key>/<value> "
                                     "pairs; {key} has no value", key=name)])
        else:
            pairs.append((name, parts[index + 1]))
            index += 2
    require(check_image_params(pairs))
    return pairs


def image_params_text(pairs: Iterable[tuple[str, str]]) -> str:
    """[("fw", "300")] -> `/fw/300`, colours upper-cased (checked first); a key without a
    value (`info`, `meta`) is written alone."""
    pairs = [(name, value.upper() if name in COLOURS else value) for name, value in pairs]
    require(check_image_params(pairs))
    return "".join(f"/{name}/{value}" if value else f"/{name}" for name, value in pairs)
