"""URL-parameter image processing: `/<key>/<value>/...` read into one validated `Recipe`.

Parsing is separate from drawing (imaging.py) so that a bad value is refused before any image is
opened, with a message naming the key (content-delivery.md, "Image URLs"; cloud/image.md, which
DECISIONS.md makes normative, its whole "功能" table). The same parser checks the custom
versions when they are configured, so a version that would fail never gets published. Value
shapes are imagevalues.py's.

From cloud/image.md:
- Scaling: fw, fh, max, min, sq (pixels), fwfh, fwfh2, both (`<w>x<h>`), fxfn, fxfn2
  (`<long>x<short>`), scale, wscale, hscale (percent, 1-1000), fp (a pixel count,
  1-25000000). `/force/true` lets fw, fh, fwfh, fwfh2, max, min, fxfn, fxfn2 and fp enlarge,
  and makes `both` stretch instead of cropping to the size.
- crop (before scaling) and clip (after) `<w>x<h>a<x>a<y>` (`s` for a negative offset, 0x0 up to
  the edge), `gravity` (after the crop or clip it places), `roundrect/<radius>`.
- Watermarks: `/watermark/text/<text>` or `/watermark/url/<path>`, the value Base64 with `/`
  written `|`, followed by their own keys: both take align, margin, opacity, animate; the text
  takes font, size, color, border (`RRGGBBAA`); the image percent and repeat. Repeating
  `/watermark/...` starts another watermark; a watermark key belongs to the watermark before it.
- rotate (`auto` or 1-360 degrees clockwise), flip (`left,right`, `top,down`), unsharp,
  gaussblur, border / brdcolor, canvas / cvscolor, the gradient gdori / gdpos / gdstartcolor /
  gdstopcolor.
- Image information `/info`, `/meta`, `/meta/iptc`, `/meta/all` (no value); theme colours
  `/excolor/<1-4096>` with `/exformat/dec|hex`.
- Output: format, lossless, quality 1-99, compress, coalesce, progressive, noicc, strip, gifto,
  exifswitch, ignore-error.
- A version name followed by parameters (`photo.jpg!small/fw/80`): `with_version` takes the
  version's keys, then the URL's, which replace the version's of the same key (any scaling key
  the version's scaling key; watermarks are added after the version's).

Decisions where the page is silent (docs/decisions.md, "Image processing keys"):
- Keys may come in any order but each at most once (a watermark's keys once per watermark); a
  key without a value, an unknown key, or two scaling keys in one URL are refused.
- Booleans are `true` or `false`.
- `cvscolor` needs `canvas`, `brdcolor` needs `border`, `exformat` needs `excolor`, `force` a
  scaling key, `gravity` a crop or clip before it, the gradient's other keys `gdori`, and
  `gdori` both colours: alone they would do nothing. `excolor` and the information keys answer
  JSON, so at most one of them.
- Sizes are whole pixels from 1 to MAX_SIDE; offsets from 0 to MAX_SIDE; `roundrect` 1 to
  MAX_SIDE; `gaussblur` sigma 1 to 50.
- `border` right after a text watermark's keys is the watermark's when its value is `RRGGBBAA`,
  the image's border (`<w>x<h>`) otherwise.
- At most MAX_WATERMARKS watermarks; a text of at most MAX_TEXT characters, a size of 1 to
  MAX_TEXT_SIZE pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sandbox.delivery import imagevalues as values_of
from sandbox.delivery.imagevalues import MAX_SIDE, Box, ImageParamError, Rgba

__all__ = ["MAX_SIDE", "Box", "ImageParamError", "Rgba", "Recipe", "Scaling", "Watermark",
           "Gradient", "parse", "with_version"]

MAX_SCALE = 1000
MAX_PIXEL_PRODUCT = 25_000_000
MAX_COLOURS = 4096
MAX_WATERMARKS = 5
MAX_TEXT = 200
MAX_TEXT_SIZE = 1000
SCALING_KEYS = ("sq", "fw", "fh", "fwfh", "fwfh2", "both", "max", "min", "scale", "wscale",
                "hscale", "fxfn", "fxfn2", "fp")
# The scaling keys that enlarge only with `/force/true` (the page: "大部分参数默认不支持放大").
FORCED_KEYS = ("fw", "fh", "fwfh", "fwfh2", "max", "min", "fxfn", "fxfn2", "fp")
SWITCH_KEYS = ("gifto", "unsharp", "compress", "progressive", "force", "lossless", "coalesce",
               "noicc", "strip", "exifswitch", "ignore-error")
OTHER_KEYS = ("rotate", "flip", "crop", "clip", "gravity", "roundrect", "quality", "format",
              "gaussblur", "canvas", "cvscolor", "border", "brdcolor", "excolor", "exformat",
              "gdori", "gdpos", "gdstartcolor", "gdstopcolor")
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
FORMATS = ("jpg", "png", "webp")
FLIPS = ("left,right", "top,down")
GRADIENTS = ("top,down", "bottom,up", "left,right", "right,left")
EXTRACT_FORMATS = ("dec", "hex")
GRAVITIES = ("northwest", "north", "northeast", "west", "center", "east", "southwest", "south",
             "southeast")
FONTS = ("simsun", "simhei", "simkai", "simli", "simyou", "simfang", "sc", "tc", "arial",
         "georgia", "helvetica", "roman")
# Keys that need another key to mean anything.
NEEDS = {"cvscolor": "canvas", "brdcolor": "border", "exformat": "excolor", "gdpos": "gdori",
         "gdstartcolor": "gdori", "gdstopcolor": "gdori"}
CUTS = ("crop", "clip")


@dataclass(frozen=True)
class Scaling:
    """One scaling key; `width`/`height` carry its numbers (the one-number keys use `width`;
    fxfn and fxfn2 put the long side in `width`, the short in `height`)."""

    key: str
    width: int
    height: int = 0


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
class Gradient:
    """`gdori` with its colours (RRGGBBAA, AA transparency) and optional `gdpos` (None: the
    whole length)."""

    orientation: str
    start: Rgba
    stop: Rgba
    positions: tuple[int, int] | None = None


@dataclass(frozen=True)
class Recipe:
    """Everything one image URL asks for; None / False means "not asked"."""

    scaling: Scaling | None = None
    gifto: bool = False
    rotate: str | None = None  # "auto" or whole degrees "1".."360", clockwise
    flip: str | None = None
    crop: Box | None = None
    clip: Box | None = None
    crop_gravity: str = "northwest"
    clip_gravity: str = "northwest"
    roundrect: int | None = None
    unsharp: bool = False
    compress: bool = False
    quality: int | None = None
    format: str | None = None
    lossless: bool = False
    coalesce: bool = True
    noicc: bool = False
    strip: bool = False
    exifswitch: bool = False
    ignore_error: bool = False
    gaussblur: tuple[int, int] | None = None
    progressive: bool = False
    canvas: Box | None = None
    cvscolor: Rgba | None = None
    border: tuple[int, int] | None = None
    brdcolor: Rgba | None = None
    gradient: Gradient | None = None
    force: bool = False
    watermarks: tuple[Watermark, ...] = ()
    # "info", "meta", "meta/iptc" or "meta/all": answer the result's information as JSON.
    info: str | None = None
    # `/excolor/<n>`: answer the result's theme colours as JSON, in `exformat`.
    excolor: int | None = None
    exformat: str = "dec"


@dataclass
class _Keys:
    """A processing text read but not yet checked: the plain keys with their values, in order,
    each watermark's kind, encoded value and keys, the cut (crop or clip) read last and the cut
    a gravity follows."""

    plain: dict[str, str] = field(default_factory=dict)
    watermarks: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    last_cut: str | None = None
    gravity_of: str | None = None


def parse(text: str) -> Recipe:
    """`/fw/300/format/webp` (leading and trailing slashes optional) -> Recipe."""
    return _recipe(_read(text))


def with_version(version: str, text: str) -> Recipe:
    """A version's processing text with the URL's parameters after it (`!small/fw/80`): the
    URL's keys replace the version's (cloud/image.md: parameters win over the version)."""
    base = _read(version)
    extra = _read(text, last_cut=base.last_cut)
    if any(key in SCALING_KEYS for key in extra.plain):
        base.plain = {key: value for key, value in base.plain.items()
                      if key not in SCALING_KEYS}
    base.plain.update(extra.plain)
    base.watermarks.extend(extra.watermarks)
    base.gravity_of = extra.gravity_of or base.gravity_of
    return _recipe(base)


def _read(text: str, *, last_cut: str | None = None) -> _Keys:
    parts = text.strip("/").split("/")
    if parts == [""]:
        raise ImageParamError("parameters", "no processing key given after the separator")
    found = _Keys(last_cut=last_cut)
    index = 0
    while index < len(parts):
        key = parts[index]
        if key == "info":
            _once(found.plain, "info", "info")
            index += 1
            continue
        if key == "meta":
            value = parts[index + 1] if index + 1 < len(parts) else ""
            taken = value in META_VALUES
            _once(found.plain, "info", f"meta/{value}" if taken else "meta")
            index += 2 if taken else 1
            continue
        if key not in KEYS:
            raise ImageParamError(key or "parameters",
                                  f"unknown processing key; known keys: {', '.join(KEYS)}")
        if key == WATERMARK:
            _read_watermark(found, parts, index)
            index += 3
            continue
        if index + 1 >= len(parts):
            raise ImageParamError(key, "a key needs a value after it")
        value = parts[index + 1]
        index += 2
        if _is_watermark_key(found, key, value):
            _watermark_key(found, key, value)
            continue
        if key in WATERMARK_KEYS and key not in OTHER_KEYS:
            raise ImageParamError(key, "only after /watermark/text/... or /watermark/url/...")
        if key in CUTS:
            found.last_cut = key
        if key == "gravity":
            if found.last_cut is None:
                raise ImageParamError("gravity", "only after /crop/... or /clip/..., which it "
                                                 "places")
            found.gravity_of = found.last_cut
        _once(found.plain, key, value)
    return found


def _read_watermark(found: _Keys, parts: list[str], index: int) -> None:
    if index + 2 >= len(parts):
        raise ImageParamError(WATERMARK, "must be /watermark/text/<Base64 text> or "
                                         "/watermark/url/<Base64 path>")
    kind, value = parts[index + 1], parts[index + 2]
    if kind not in WATERMARK_KINDS:
        raise ImageParamError(WATERMARK, f"must be followed by text or url, got {kind!r}")
    if len(found.watermarks) == MAX_WATERMARKS:
        raise ImageParamError(WATERMARK, f"at most {MAX_WATERMARKS} watermarks")
    found.watermarks.append((kind, value, {}))


def _watermark_key(found: _Keys, key: str, value: str) -> None:
    kind, _encoded, keys = found.watermarks[-1]
    if kind not in WATERMARK_KEYS[key]:
        other = "text" if kind == "url" else "url"
        raise ImageParamError(key, f"only for /watermark/{other}/..., not after "
                                   f"/watermark/{kind}/...")
    if key in keys:
        raise ImageParamError(key, "given more than once for this watermark")
    keys[key] = value


def _is_watermark_key(found: _Keys, key: str, value: str) -> bool:
    """Whether `key` belongs to the watermark before it; `border` does only as an RRGGBBAA
    after a text watermark (else it is the image's `<w>x<h>` border)."""
    if key not in WATERMARK_KEYS or not found.watermarks:
        return False
    if key == "border":
        return found.watermarks[-1][0] == "text" and values_of.is_rgba(value)
    return True


def _once(values: dict[str, str], key: str, value: str) -> None:
    if key in values:
        raise ImageParamError(key, "given more than once")
    values[key] = value


def _combinations(found: _Keys) -> list[str]:
    values = found.plain
    scaling_keys = [key for key in values if key in SCALING_KEYS]
    if len(scaling_keys) > 1:
        raise ImageParamError(scaling_keys[1],
                              f"only one scaling key per URL, {scaling_keys[0]} is already given")
    for key, owner in NEEDS.items():
        if key in values and owner not in values:
            raise ImageParamError(key, f"only together with {owner}")
    if "gdori" in values:
        for colour in ("gdstartcolor", "gdstopcolor"):
            if colour not in values:
                raise ImageParamError(colour, "a gradient (gdori) needs gdstartcolor and "
                                              "gdstopcolor")
    if "force" in values and not scaling_keys:
        raise ImageParamError("force", f"only together with a scaling key "
                                       f"({', '.join(FORCED_KEYS + ('both',))})")
    if "excolor" in values and "info" in values:
        raise ImageParamError("excolor", "the theme colours and the image information are two "
                                         "answers: ask for one")
    return scaling_keys


def _recipe(found: _Keys) -> Recipe:
    scaling_keys = _combinations(found)
    values = found.plain
    switches = {key.replace("-", "_"): values_of.boolean(key, values[key])
                for key in SWITCH_KEYS if key in values}
    gravity = values_of.choice("gravity", values.get("gravity"), GRAVITIES) or "northwest"
    return Recipe(
        scaling=_scaling(scaling_keys[0], values[scaling_keys[0]]) if scaling_keys else None,
        rotate=_rotation(values.get("rotate")),
        flip=values_of.choice("flip", values.get("flip"), FLIPS),
        crop=_cut("crop", values.get("crop")),
        clip=_cut("clip", values.get("clip")),
        crop_gravity=gravity if found.gravity_of == "crop" else "northwest",
        clip_gravity=gravity if found.gravity_of == "clip" else "northwest",
        roundrect=_number(values, "roundrect", 1, MAX_SIDE),
        quality=_number(values, "quality", 1, 99),
        format=values_of.choice("format", values.get("format"), FORMATS),
        gaussblur=values_of.blur(values["gaussblur"]) if "gaussblur" in values else None,
        canvas=(values_of.box("canvas", values["canvas"], offsets_optional=True)
                if "canvas" in values else None),
        cvscolor=_colour(values, "cvscolor"),
        border=_border(values.get("border")),
        brdcolor=_colour(values, "brdcolor"),
        gradient=_gradient(values),
        watermarks=tuple(_watermark(kind, encoded, keys)
                         for kind, encoded, keys in found.watermarks),
        info=values.get("info"),
        excolor=_number(values, "excolor", 1, MAX_COLOURS),
        exformat=values_of.choice("exformat", values.get("exformat"),
                                  EXTRACT_FORMATS) or "dec",
        **switches,
    )


def _number(values: dict[str, str], key: str, low: int, high: int) -> int | None:
    return values_of.whole(key, values[key], low, high) if key in values else None


def _colour(values: dict[str, str], key: str) -> Rgba | None:
    return values_of.rgba(key, values[key]) if key in values else None


def _rotation(value: str | None) -> str | None:
    if value is None or value == "auto":
        return value
    try:
        return str(values_of.whole("rotate", value, 1, 360))
    except ImageParamError:
        raise ImageParamError("rotate", f"must be auto or whole degrees from 1 to 360, "
                                        f"got {value!r}") from None


def _border(value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    across, down = values_of.size("border", value, minimum=0)
    if across == down == 0:
        raise ImageParamError("border", "0x0 draws no border: give a width or a height")
    return across, down


def _cut(key: str, value: str | None) -> Box | None:
    return None if value is None else values_of.box(key, value, zero_size=True)


def _gradient(values: dict[str, str]) -> Gradient | None:
    orientation = values_of.choice("gdori", values.get("gdori"), GRADIENTS)
    if orientation is None:
        return None
    return Gradient(
        orientation=orientation,
        start=values_of.rgba("gdstartcolor", values["gdstartcolor"]),
        stop=values_of.rgba("gdstopcolor", values["gdstopcolor"]),
        positions=values_of.positions("gdpos", values["gdpos"]) if "gdpos" in values else None,
    )


def _watermark(kind: str, encoded: str, keys: dict[str, str]) -> Watermark:
    decoded = values_of.text64(f"watermark/{kind}", encoded)
    if kind == "url" and not decoded.startswith("/"):
        raise ImageParamError("watermark/url", f"must be the Base64 of a path starting with "
                                               f"/, got {decoded!r}")
    if kind == "text" and not decoded.strip():
        raise ImageParamError("watermark/text", "the text is empty")
    if len(decoded) > MAX_TEXT:
        raise ImageParamError(f"watermark/{kind}", f"at most {MAX_TEXT} characters")
    margin = values_of.size("margin", keys["margin"], minimum=0) if "margin" in keys \
        else (20, 20)
    return Watermark(
        kind=kind,
        text=decoded if kind == "text" else "",
        path=decoded if kind == "url" else "",
        align=values_of.choice("align", keys.get("align"), GRAVITIES) or "northwest",
        margin=margin,
        opacity=values_of.whole("opacity", keys["opacity"], 0, 100) if "opacity" in keys else 100,
        animate=values_of.boolean("animate", keys["animate"]) if "animate" in keys else False,
        font=values_of.choice("font", keys.get("font"), FONTS) or "simsun",
        size=_number(keys, "size", 1, MAX_TEXT_SIZE) or 32,
        color=values_of.rgb("color", keys["color"]) if "color" in keys else (0, 0, 0),
        border=_colour(keys, "border"),
        percent=_number(keys, "percent", 0, 100) or 0,
        repeat=values_of.boolean("repeat", keys["repeat"]) if "repeat" in keys else False,
    )


def _scaling(key: str, value: str) -> Scaling:
    if key in ("fwfh", "fwfh2", "both", "fxfn", "fxfn2"):
        width, height = values_of.size(key, value)
        return Scaling(key, width, height)
    if key in ("scale", "wscale", "hscale"):
        return Scaling(key, values_of.whole(key, value, 1, MAX_SCALE))
    if key == "fp":
        return Scaling(key, values_of.whole(key, value, 1, MAX_PIXEL_PRODUCT))
    return Scaling(key, values_of.whole(key, value, 1, MAX_SIDE))
