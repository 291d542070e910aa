"""Pure rules of content-delivery.md: the URL forms of the edge and the checks on their values.

Every builder validates what it is given and raises `LinkError` carrying one `Problem` per
mistake, each naming its field (`path`, `_upp`, `fw`, ...) and a stable `code` with `params`,
so pages translate them (`delivery.texts`) and the command line prints the English message.

Paths are the plain (decoded) names of the files, `/photos/a b.jpg`: the builders percent-encode
them once, from UTF-8, keeping `/` and the unreserved characters, so a `%`, `!` or `?` in a
name is always taken literally (and a `!` in a name cannot be mistaken for the separator).
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote, urlencode

from delivery.client import MAX_UPP, directory_count, upt_token

SEPARATORS = ("!", "-", "_")
COMBINE_MARK = "!!"
COMBINE_KINDS = (".js", ".css")
# A version name is appended after the separator, so it must not contain any separator (and
# the storage secret, which shares the slot, is letters and digits too).
VERSION_NAME = re.compile(r"[A-Za-z0-9]{1,32}")
SECRET = re.compile(r"[A-Za-z0-9]+")
UPV = re.compile(r"[0-9]{2}")
# Characters a download name may not carry: path separators, quotes, controls.
_BAD_NAME_CHARS = re.compile(r'[/\\"\x00-\x1f\x7f]')


@dataclass(frozen=True)
class Problem:
    """One broken rule: `field` names the input, `code` the rule, `params` fill the message."""

    field: str
    code: str
    message: str
    # `dataclasses.` because the `field` attribute above shadows the function in this body.
    params: Mapping[str, object] = dataclasses.field(default_factory=dict)


class LinkError(ValueError):
    """Raised when a link cannot be built; carries every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("; ".join(f"{p.field}: {p.message}" for p in self.problems))


def require(problems: Sequence[Problem]) -> None:
    if problems:
        raise LinkError(problems)


def problem(field_name: str, code: str, message: str, **params: object) -> Problem:
    """A Problem whose English `message` has its `{name}` placeholders filled from `params`."""
    values = {"field": field_name, **params}
    return Problem(field_name, code, message.format_map(values), values)


# --- paths -----------------------------------------------------------------------------------


def check_path(path: str, field_name: str = "path") -> list[Problem]:
    if not path:
        return [problem(field_name, "required", "a path is required")]
    found = []
    if not path.startswith("/"):
        found.append(problem(field_name, "path_start", "must start with '/'", value=path))
    if path.endswith("/"):
        found.append(problem(field_name, "path_is_folder", "must name a file, not a folder"))
    if "?" in path or "#" in path:
        found.append(problem(field_name, "path_query", "must not contain '?' or '#'"))
    if any(ch in path for ch in "\r\n\t"):
        found.append(problem(field_name, "path_control", "must not contain line breaks or tabs"))
    if any(segment in (".", "..") for segment in path.split("/")):
        found.append(problem(field_name, "path_dots", "must not contain '.' or '..' segments"))
    return found


def encode_path(path: str) -> str:
    """The path as written in a URL: UTF-8 percent-encoding, `/` and unreserved kept."""
    return quote(path, safe="/")


def edge_url(base_url: str, path: str) -> str:
    """`<delivery_url><encoded path>` for a file path; raises LinkError on a bad path."""
    require(check_path(path))
    return base_url.rstrip("/") + encode_path(path)


def with_query(url: str, params: Sequence[tuple[str, str]]) -> str:
    """`url` with `params` appended (`?` or `&`), each value percent-encoded from UTF-8."""
    if not params:
        return url
    joiner = "&" if "?" in url else "?"
    return url + joiner + urlencode(list(params), quote_via=quote, safe="")


def split_url(url: str) -> tuple[str, str]:
    """(base up to the path's start, path with query) of an absolute or root-relative URL."""
    match = re.match(r"^(https?://[^/?#]+)?(/[^#]*)?$", url)
    if match is None or match.group(2) is None:
        raise LinkError([problem("url", "url_shape", "must be http(s)://host/path or /path")])
    return match.group(1) or "", match.group(2)


# --- token protection (_upt, _upp) ------------------------------------------------------------


def check_upp(upp: int | None, uri: str) -> list[Problem]:
    """`_upp` must be 0 to 20 and no deeper than the path's directories: the edge would then
    sign the full URI, which is never what someone choosing a level meant."""
    if upp is None:
        return []
    if not 0 <= upp <= MAX_UPP:
        return [problem("_upp", "upp_range", "must be from 0 to 20", value=upp)]
    depth = directory_count(uri)
    if upp > depth:
        return [
            problem("_upp", "upp_depth", "is deeper than the path", value=upp, depth=depth)
        ]
    return []


def token_params(
    uri: str, secret: str, etime: int, upp: int | None = None
) -> list[tuple[str, str]]:
    """The query items of a signed link for the encoded `uri` (path without query)."""
    found = check_upp(upp, uri)
    if etime <= 0:
        found.append(problem("etime", "etime", "must be a UNIX time in seconds"))
    if not secret:
        found.append(problem("token_secret", "no_secret", "the token secret is not configured"))
    require(found)
    params = [("_upt", upt_token(secret, uri, etime, upp))]
    if upp is not None:
        params.append(("_upp", str(upp)))
    return params


def signed_url(
    url: str, secret: str, etime: int, upp: int | None = None
) -> str:
    """`url` (an edge URL, possibly with a query and an image suffix) signed until `etime`.

    The signed URI is the URL's path as written, without the query.
    """
    base, rest = split_url(url)
    uri = rest.split("?", 1)[0]
    return with_query(base + rest, token_params(uri, secret, etime, upp))


# --- secret-protected originals, downloads, cache bypass --------------------------------------


def check_separator(separator: str) -> list[Problem]:
    if separator not in SEPARATORS:
        return [problem("separator", "separator", "must be one of ! - _", value=separator)]
    return []


def secret_url(file_url: str, separator: str, secret: str) -> str:
    """`<url><separator><secret>`: the only way to a file stored with a Content-Secret."""
    found = check_separator(separator)
    if not secret:
        found.append(problem("secret", "required", "the file's secret is required"))
    elif not SECRET.fullmatch(secret):
        found.append(problem("secret", "secret_chars", "must be letters and digits only"))
    require(found)
    return f"{file_url}{separator}{secret}"


def check_download_name(name: str) -> list[Problem]:
    if _BAD_NAME_CHARS.search(name):
        return [problem("_upd", "download_name", 'must not contain / \\ " or control characters')]
    if name.strip() != name or not name:
        return [problem("_upd", "download_name_blank", "must not start or end with a space")]
    if len(name) > 200:
        return [problem("_upd", "download_name_long", "must be at most 200 characters")]
    return []


def download_url(url: str, name: str | None = None) -> str:
    """Forced download: `_upd=true` keeps the file's own name, `_upd=<name>` renames it.

    Non-ASCII (Chinese) names are UTF-8 percent-encoded in the query.
    """
    if name is None or name == "":
        return with_query(url, [("_upd", "true")])
    require(check_download_name(name))
    return with_query(url, [("_upd", name)])


def check_upv(value: str) -> list[Problem]:
    if not UPV.fullmatch(value):
        return [problem("_upv", "upv", "must be two digits from 00 to 99", value=value)]
    return []


def cache_bypass_url(url: str, value: str) -> str:
    """`_upv=NN`: a new two-digit value fetches a fresh copy past the cache."""
    require(check_upv(value))
    return with_query(url, [("_upv", value)])


# --- JS/CSS combine --------------------------------------------------------------------------


def combine_url(base_url: str, directory: str, files: Sequence[str]) -> str:
    """`<host>/<dir>/!!a.js,b.js`: the listed files of one folder returned as one.

    All files must be of one kind (all `.js` or all `.css`): a browser loads the result as one
    script or one stylesheet.
    """
    found: list[Problem] = []
    directory = directory.strip() or "/"
    if not directory.startswith("/"):
        found.append(problem("directory", "path_start", "must start with '/'", value=directory))
    if any(segment in (".", "..") for segment in directory.split("/")):
        found.append(problem("directory", "path_dots", "must not contain '.' or '..' segments"))
    names = [name.strip() for name in files if name.strip()]
    if len(names) < 2:
        found.append(problem("files", "combine_count", "list at least two files"))
    kinds = set()
    for line, name in enumerate(names, start=1):
        if "/" in name or "," in name or "?" in name or "#" in name:
            found.append(problem("files", "combine_name", "must be a plain file name of the "
                                 "folder (no / , ? or #)", line=line, value=name))
            continue
        kind = next((k for k in COMBINE_KINDS if name.lower().endswith(k)), None)
        if kind is None:
            found.append(problem("files", "combine_kind", "must end in .js or .css",
                                 line=line, value=name))
        else:
            kinds.add(kind)
    if len(kinds) > 1:
        found.append(problem("files", "combine_mixed", "must all be .js or all be .css"))
    require(found)
    folder = directory.rstrip("/") + "/"
    listed = ",".join(quote(name, safe="") for name in names)
    return f"{base_url.rstrip('/')}{encode_path(folder)}{COMBINE_MARK}{listed}"


# --- image processing ------------------------------------------------------------------------

# Pixel sizes are not bounded by the spec; we keep them to what an edge can sensibly produce.
MAX_PIXELS = 10000
_SIZE = re.compile(r"([0-9]+)x([0-9]+)")
_AREA = re.compile(r"([0-9]+)x([0-9]+)a([0-9]+)a([0-9]+)")
_COLOUR = re.compile(r"[0-9A-Fa-f]{8}")
_RGB = re.compile(r"[0-9A-Fa-f]{6}")
_INT = re.compile(r"[0-9]+")
_BASE64 = re.compile(r"[A-Za-z0-9+|_=-]+")


@dataclass(frozen=True)
class ImageKey:
    """One key of the spec's URL-parameter table: `shape` picks the check of its value."""

    name: str
    shape: str
    resize: bool = False
    low: int = 1
    high: int = MAX_PIXELS
    choices: tuple[str, ...] = ()


IMAGE_KEYS: tuple[ImageKey, ...] = (
    ImageKey("sq", "number", resize=True),
    ImageKey("fw", "number", resize=True),
    ImageKey("fh", "number", resize=True),
    ImageKey("fwfh", "size", resize=True),
    ImageKey("both", "size", resize=True),
    ImageKey("max", "number", resize=True),
    ImageKey("min", "number", resize=True),
    # cloud/image.md: 1 to 1000, above 100 enlarges.
    ImageKey("scale", "number", resize=True, low=1, high=1000),
    # fw, fh, fwfh, max and min enlarge only with it (cloud/image.md).
    ImageKey("force", "true"),
    ImageKey("gifto", "true"),
    ImageKey("rotate", "choice", choices=("auto", "90", "180", "270")),
    ImageKey("crop", "area"),
    ImageKey("unsharp", "true"),
    ImageKey("compress", "true"),
    ImageKey("quality", "number", low=1, high=99),
    ImageKey("format", "choice", choices=("jpg", "png", "webp")),
    ImageKey("gaussblur", "blur", low=0, high=50),
    ImageKey("progressive", "true"),
    ImageKey("canvas", "area"),
    ImageKey("cvscolor", "colour"),
    ImageKey("border", "border"),
    ImageKey("brdcolor", "colour"),
)
KEYS_BY_NAME: dict[str, ImageKey] = {key.name: key for key in IMAGE_KEYS}
# A colour means nothing without the thing it colours.
NEEDS: dict[str, str] = {"cvscolor": "canvas", "brdcolor": "border"}

# cloud/image.md's image information: `/info`, `/meta`, `/meta/iptc`, `/meta/all` (pairs
# ("info", ""), ("meta", ""), ("meta", "iptc"), ("meta", "all")), at most one of them.
INFO_KEYS = ("info", "meta")
META_VALUES = ("", "iptc", "all")
# Watermarks: ("watermark", "text/<Base64>") or ("watermark", "url/<Base64 path>"), then its
# keys; a key belongs to the watermark before it (cloud/image.md, "水印").
WATERMARK = "watermark"
WATERMARK_KINDS = ("text", "url")
GRAVITIES = ("northwest", "north", "northeast", "west", "center", "east", "southwest", "south",
             "southeast")
FONTS = ("simsun", "simhei", "simkai", "simli", "simyou", "simfang", "sc", "tc", "arial",
         "georgia", "helvetica", "roman")
MAX_WATERMARKS = 5
MAX_WATERMARK_TEXT = 200
WATERMARK_KEYS: dict[str, ImageKey] = {key.name: key for key in (
    ImageKey("align", "choice", choices=GRAVITIES),
    ImageKey("margin", "size", low=0),
    ImageKey("opacity", "number", low=0, high=100),
    ImageKey("animate", "true"),
    ImageKey("font", "choice", choices=FONTS),
    ImageKey("size", "number", low=1, high=1000),
    ImageKey("color", "rgb"),
    ImageKey("border", "colour"),
    ImageKey("percent", "number", low=0, high=100),
    ImageKey("repeat", "true"),
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


def check_image_value(key: ImageKey, value: str) -> list[Problem]:
    """The value of one key, checked against the spec's table (and our pixel bound)."""
    name = key.name
    if key.shape == "number":
        if not _INT.fullmatch(value) or not key.low <= int(value) <= key.high:
            return [problem(name, "image_number", "must be a whole number from {low} to {high}",
                            low=key.low, high=key.high, value=value)]
    elif key.shape == "true":
        if value != "true":
            return [problem(name, "image_true", "must be true", value=value)]
    elif key.shape == "choice":
        if value not in key.choices:
            return [problem(name, "image_choice", "must be one of {choices}",
                            choices=", ".join(key.choices), value=value)]
    elif key.shape in ("size", "border"):
        match = _SIZE.fullmatch(value)
        low = 0 if key.shape == "border" else key.low
        if match is None or not all(low <= int(n) <= MAX_PIXELS for n in match.groups()) or (
            key.shape == "border" and match.groups() == ("0", "0")
        ):
            return [problem(name, "image_size", "must be <width>x<height>, each from {low} to "
                            "{high}", low=low, high=MAX_PIXELS, value=value)]
    elif key.shape == "area":
        match = _AREA.fullmatch(value)
        if match is None or not all(int(n) <= MAX_PIXELS for n in match.groups()) or int(
            match.group(1)) < 1 or int(match.group(2)) < 1:
            return [problem(name, "image_area", "must be <width>x<height>a<x>a<y> with a "
                            "positive width and height, e.g. 200x100a10a20",
                            high=MAX_PIXELS, value=value)]
    elif key.shape == "colour":
        if not _COLOUR.fullmatch(value):
            return [problem(name, "image_colour", "must be RRGGBBAA in hex, e.g. FFFFFF80",
                            value=value)]
    elif key.shape == "rgb":
        if not _RGB.fullmatch(value):
            return [problem(name, "image_rgb", "must be RRGGBB in hex, e.g. FF0000",
                            value=value)]
    elif key.shape == "blur":
        match = _SIZE.fullmatch(value)
        if match is None or not 0 <= int(match.group(1)) <= 50 or not 1 <= int(
            match.group(2)) <= 50:
            return [problem(name, "image_blur", "must be <radius>x<sigma>, radius 0 to 50, "
                            "sigma 1 to 50", value=value)]
    return []


def check_image_params(pairs: Sequence[tuple[str, str]]) -> list[Problem]:
    """Every key known, given once (a watermark's keys once per watermark), each value valid;
    one resize at most; colours need their canvas or border, `force` a resize; watermark keys
    follow a watermark of their kind; one information key at most."""
    found: list[Problem] = []
    seen: set[str] = set()
    resizes = []
    mark: tuple[str, set[str]] | None = None  # the current watermark: kind, keys seen
    marks = 0
    for name, value in pairs:
        if name == WATERMARK:
            marks += 1
            found.extend(_check_watermark(value, marks))
            mark = (value.partition("/")[0], set())
            continue
        if name in WATERMARK_KEYS and mark is not None and (
                name != "border" or (mark[0] == "text" and _COLOUR.fullmatch(value))):
            found.extend(_check_watermark_key(name, value, mark))
            continue
        if name in WATERMARK_KEYS and name not in KEYS_BY_NAME:
            found.append(problem(name, "image_watermark_first",
                                 "only after a watermark (watermark/text or watermark/url)"))
            continue
        if name in INFO_KEYS:
            if "info" in seen:
                found.append(problem(name, "image_twice", "is given twice"))
            elif value not in (META_VALUES if name == "meta" else ("",)):
                found.append(problem(name, "image_choice", "must be one of {choices}",
                                     choices="info, meta, meta/iptc, meta/all", value=value))
            seen.add("info")
            continue
        key = KEYS_BY_NAME.get(name)
        if key is None:
            found.append(problem(name or "params", "image_key", "is not a processing key",
                                 value=name))
            continue
        if name in seen:
            found.append(problem(name, "image_twice", "is given twice"))
            continue
        seen.add(name)
        if key.resize:
            resizes.append(name)
        found.extend(check_image_value(key, value))
    if len(resizes) > 1:
        found.append(problem(resizes[1], "image_resizes", "only one of {keys} may be used",
                             keys=", ".join(resizes)))
    for colour, owner in NEEDS.items():
        if colour in seen and owner not in seen:
            found.append(problem(colour, "image_needs", "needs {owner}", owner=owner))
    if "force" in seen and not resizes:
        found.append(problem("force", "image_needs", "needs {owner}",
                             owner="fw, fh, fwfh, max, min"))
    if not pairs and not found:
        found.append(problem("params", "image_empty", "give at least one processing key"))
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
    body = text.strip()
    if body.startswith("/"):
        body = body[1:]
    if body.endswith("/"):
        body = body[:-1]
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
            raise LinkError([problem("params", "image_odd", "must be /<key>/<value> pairs; "
                                     "{key} has no value", key=name)])
        else:
            pairs.append((name, parts[index + 1]))
            index += 2
    require(check_image_params(pairs))
    return pairs


def image_params_text(pairs: Iterable[tuple[str, str]]) -> str:
    """[("fw", "300")] -> `/fw/300`, colours upper-cased (checked first); a key without a
    value (`info`, `meta`) is written alone."""
    pairs = [(name, value.upper() if name in NEEDS else value) for name, value in pairs]
    require(check_image_params(pairs))
    return "".join(f"/{name}/{value}" if value else f"/{name}" for name, value in pairs)


def processed_image_url(file_url: str, separator: str, pairs: Sequence[tuple[str, str]]) -> str:
    """`<file URL><separator>/<key>/<value>...`."""
    require(check_separator(separator))
    return f"{file_url}{separator}{image_params_text(pairs)}"


def check_version_name(name: str) -> list[Problem]:
    if not VERSION_NAME.fullmatch(name):
        return [problem("name", "version_name", "must be 1 to 32 letters or digits",
                        value=name)]
    return []


def version_url(file_url: str, separator: str, name: str,
                pairs: Sequence[tuple[str, str]] = ()) -> str:
    """`<file URL><separator><version name>` for a custom version, followed by parameters
    when `pairs` are given (`photo.jpg!small/fw/80`: the URL's keys win over the version's,
    cloud/image.md)."""
    require(check_separator(separator) + check_version_name(name))
    return f"{file_url}{separator}{name}{image_params_text(pairs) if pairs else ''}"
