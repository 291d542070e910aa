"""Pure rules of the storage spec, checked before any call to the provider.

Checks return a list of `Problem` (empty when the input is fine) so a form can show every
mistake at once; `require` turns such a list into one `RuleViolation` for code that must stop.
Each problem names the header or field it is about, so the message makes sense on its own.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote, unquote

META_PREFIX = "x-svc-meta-"
TTL_NAME = "ttl"
SECRET_NAME = "secret"
MAX_TTL_DAYS = 180
GMKERL_PREFIX = "x-gmkerl-"


@dataclass(frozen=True)
class Problem:
    """One broken rule: `field` is the header or argument name, `code` a stable machine word."""

    field: str
    code: str
    message: str
    detail: str = ""  # what a translated sentence needs beside the code (the characters found)


class RuleViolation(ValueError):
    """Raised when input breaks the spec's rules; carries every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("; ".join(problem.message for problem in self.problems))


def require(problems: Sequence[Problem]) -> None:
    """Raise `RuleViolation` when `problems` is not empty."""
    if problems:
        raise RuleViolation(problems)


# --- text shapes -----------------------------------------------------------------------------

_INTEGER = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_META_NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?")
_SECRET = re.compile(r"[A-Za-z0-9]+")
_MD5_HEX = re.compile(r"[0-9a-fA-F]{32}")
# A header value we can send unchanged: printable ASCII. Anything else is either refused by
# the HTTP stack (non Latin-1) or a header-injection risk (CR, LF).
_PRINTABLE_ASCII = re.compile(r"[\x20-\x7e]*")


def _is_integer(text: str) -> bool:
    return bool(_INTEGER.fullmatch(text))


def _as_text(value: object) -> str | None:
    """Header values may be given as str or int (bool as `true`/`false`); None if neither."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    return None


# --- metadata, ttl, secret -------------------------------------------------------------------


def meta_name(name: str) -> str:
    """Bare, lower-case metadata name: `Foo` and `x-svc-meta-Foo` both give `foo`."""
    lowered = name.strip().lower()
    return lowered[len(META_PREFIX) :] if lowered.startswith(META_PREFIX) else lowered


def meta_header(name: str) -> str:
    """Header that carries metadata `name`, e.g. `x-svc-meta-foo`."""
    return META_PREFIX + meta_name(name)


def check_meta_name(name: object) -> list[Problem]:
    """A metadata name: letters, digits and inner hyphens (the header is `x-svc-meta-<name>`).

    Underscores and other token characters are refused because proxies commonly drop headers
    that carry them, which would lose metadata silently.
    """
    if not isinstance(name, str):
        return [Problem("metadata", "type", f"metadata name must be a string, got {name!r}")]
    bare = meta_name(name)
    if not bare:
        return [Problem("metadata", "required", "metadata name is empty")]
    if not _META_NAME.fullmatch(bare):
        return [
            Problem(
                META_PREFIX + bare,
                "invalid_name",
                f"metadata name {name!r} may use only letters, digits and inner hyphens",
            )
        ]
    return []


# Printable ASCII passes unchanged, except `%`, which is encoded so that decoding restores
# exactly what was typed (a literal `%41` must not come back as `A`).
_META_SAFE = "".join(chr(code) for code in range(0x20, 0x7F) if chr(code) != "%")


def encode_meta_value(text: str) -> str:
    """A metadata value as it can be sent: UTF-8 percent-encoded where it is not printable
    ASCII (Chinese, say), as the watermark text is; `decode_meta_value` reverses it."""
    return quote(text, safe=_META_SAFE)


def decode_meta_value(value: str) -> str:
    """A stored metadata value as people read it: percent-escapes decoded from UTF-8. A value
    that does not decode (a lone `%`, bytes that are not UTF-8) is shown as stored."""
    if "%" not in value:
        return value
    try:
        return unquote(value, errors="strict")
    except UnicodeDecodeError:
        return value


def check_meta_value(header: str, value: object) -> list[Problem]:
    """A metadata value: non-empty printable ASCII without edge spaces (those are trimmed in
    transit, so the stored value would differ from the one given)."""
    if not isinstance(value, str):
        return [Problem(header, "type", f"{header} must be a string, got {value!r}")]
    if not value:
        return [Problem(header, "required", f"{header} is empty")]
    if not _PRINTABLE_ASCII.fullmatch(value):
        return [
            Problem(
                header,
                "invalid_value",
                f"{header} must be printable ASCII; URL-encode other text first",
            )
        ]
    if value != value.strip():
        return [Problem(header, "invalid_value", f"{header} must not start or end with spaces")]
    return []


def check_ttl(value: object) -> list[Problem]:
    """`x-svc-meta-ttl`: whole days from 1 to 180 (an int or a string of digits)."""
    header = META_PREFIX + TTL_NAME
    text = _as_text(value) if not isinstance(value, bool) else None
    if text is None or not _is_integer(text):
        return [
            Problem(header, "invalid", f"{header} must be a whole number of days, got {value!r}")
        ]
    if not 1 <= int(text) <= MAX_TTL_DAYS:
        return [
            Problem(
                header,
                "out_of_range",
                f"{header} must be from 1 to {MAX_TTL_DAYS} days, got {int(text)}",
            )
        ]
    return []


def check_secret(value: object, field: str = "Content-Secret") -> list[Problem]:
    """A file secret: one or more ASCII letters and digits (provider code 40300016)."""
    if not isinstance(value, str) or not _SECRET.fullmatch(value):
        return [
            Problem(field, "invalid", f"{field} must be letters and digits only, got {value!r}")
        ]
    return []


def check_metadata(metadata: Mapping[str, object]) -> list[Problem]:
    """Every name and value of a metadata mapping; `ttl` and `secret` get their own rules."""
    problems: list[Problem] = []
    seen: set[str] = set()
    for name, value in metadata.items():
        name_problems = check_meta_name(name)
        if name_problems:
            problems += name_problems
            continue
        bare = meta_name(name)
        header = META_PREFIX + bare
        if bare in seen:
            problems.append(Problem(header, "duplicate", f"{header} is given twice"))
            continue
        seen.add(bare)
        if bare == TTL_NAME:
            problems += check_ttl(value)
        elif bare == SECRET_NAME:
            problems += check_secret(value, header)
        else:
            problems += check_meta_value(header, value)
    return problems


def metadata_headers(metadata: Mapping[str, object]) -> dict[str, str]:
    """Validated `x-svc-meta-*` headers for a metadata mapping; raises `RuleViolation`."""
    require(check_metadata(metadata))
    return {meta_header(name): str(_as_text(value)) for name, value in metadata.items()}


def check_content_md5(value: object) -> list[Problem]:
    """A Content-MD5 value as the provider uses it: 32 hex digits."""
    if not isinstance(value, str) or not _MD5_HEX.fullmatch(value):
        return [
            Problem("Content-MD5", "invalid", f"Content-MD5 must be 32 hex digits, got {value!r}")
        ]
    return []


# --- paths -----------------------------------------------------------------------------------


def check_path(path: object, *, allow_root: bool = False) -> list[Problem]:
    """A path inside the bucket: `/`-separated names, no empty, `.` or `..` segment.

    One leading and one trailing `/` are optional (`a/b`, `/a/b` and `/a/b/` are the same
    path); anything that would make two different spellings name the same object is refused
    rather than silently rewritten.
    """
    if not isinstance(path, str):
        return [Problem("path", "type", f"path must be a string, got {path!r}")]
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in path):
        return [Problem("path", "invalid_char", f"path {path!r} contains control characters")]
    inner = path.removeprefix("/").removesuffix("/") if path != "/" else ""
    if not inner:
        if allow_root:
            return []
        return [Problem("path", "required", "path is empty: name a file or folder in the bucket")]
    segments = inner.split("/")
    problems: list[Problem] = []
    if "" in segments:
        problems.append(
            Problem("path", "empty_segment", f"path {path!r} has an empty segment ('//')")
        )
    dots = sorted({segment for segment in segments if segment in (".", "..")})
    if dots:
        shown = " or ".join(repr(dot) for dot in dots)
        problems.append(
            Problem("path", "dot_segment", f"path {path!r} must not contain {shown} segments")
        )
    return problems


# Control (Cc), format (Cf: the bidirectional overrides and isolates U+202A-202E and
# U+2066-2069, the marks U+200E/F, zero-width characters) and line or paragraph separators
# (Zl, Zp): none is visible as itself, so a name holding one shows as something it is not
# (`名前\u202egnp.exe` shows as `名前exe.png`).
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})


def check_name(name: str, field: str = "name") -> list[Problem]:
    """A new file or folder name: no invisible character. Only new names are checked (the
    path rules above accept what is already stored, so that it stays reachable)."""
    found = sorted({char for char in name if unicodedata.category(char) in INVISIBLE_CATEGORIES})
    if not found:
        return []
    shown = ", ".join(f"U+{ord(char):04X}" for char in found)
    return [Problem(field, "invisible_char",
                    f"{field} {name!r} contains control or text-direction characters ({shown})",
                    shown)]


def normalise_path(path: str, *, allow_root: bool = False) -> str:
    """The canonical form `/a/b` of a valid path (`/` for the root); raises `RuleViolation`."""
    require(check_path(path, allow_root=allow_root))
    inner = path.removeprefix("/").removesuffix("/") if path != "/" else ""
    return "/" + inner


# --- legacy image preprocessing (x-gmkerl-*) -------------------------------------------------

GMKERL_TYPES_SIZE = ("fix_width_or_height", "fix_both")
GMKERL_TYPES_NUMBER = ("fix_width", "fix_height", "fix_max", "fix_min", "fix_scale")
GMKERL_TYPES = GMKERL_TYPES_SIZE + GMKERL_TYPES_NUMBER
WATERMARK_FONTS = ("simsun", "simhei", "simkai", "simli", "simyou", "simfang")
VALIGNS = ("top", "middle", "bottom")
HALIGNS = ("left", "center", "right")
# cloud/image.md ("主题色提取"): `dec` (the provider's default) or `hex`; 1 to 4096 colours.
EXTRACT_FORMATS = ("hex", "dec")
EXTRACT_MAX_COLOURS = 4096

_SIZE = re.compile(r"([0-9]+)x([0-9]+)")
_CROP = re.compile(r"([0-9]+)x([0-9]+)a([0-9]+)a([0-9]+)")
_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")
_BORDER = re.compile(r"#?[0-9A-Fa-f]{8}")
_URL_ENCODED = re.compile(r"(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+")
_VERSION_NAME = re.compile(r"[A-Za-z0-9_.-]+")

# A validator returns None when the value is fine, else the end of a sentence that begins with
# the header name ("must be ...").
Validator = Callable[[str], str | None]


def _integer_between(low: int, high: int | None) -> Validator:
    def validate(text: str) -> str | None:
        in_range = _is_integer(text) and int(text) >= low and (high is None or int(text) <= high)
        if in_range:
            return None
        if high is None:
            return f"must be a whole number of at least {low}"
        return f"must be a whole number from {low} to {high}"

    return validate


def _one_of(choices: Sequence[str]) -> Validator:
    def validate(text: str) -> str | None:
        return None if text in choices else f"must be one of {', '.join(choices)}"

    return validate


def _pattern(regex: re.Pattern[str], shape: str) -> Validator:
    def validate(text: str) -> str | None:
        return None if regex.fullmatch(text) else f"must look like {shape}"

    return validate


def _size(text: str) -> str | None:
    match = _SIZE.fullmatch(text)
    if match and int(match[1]) > 0 and int(match[2]) > 0:
        return None
    return "must be <width>x<height> with positive whole numbers, e.g. 480x576"


def _rotate(text: str) -> str | None:
    if text == "auto" or (_DECIMAL.fullmatch(text) and 0 < float(text) <= 360):
        return None
    return "must be auto or a number of degrees greater than 0 and at most 360"


def _crop(text: str) -> str | None:
    match = _CROP.fullmatch(text)
    if match and int(match[1]) > 0 and int(match[2]) > 0:
        return None
    return "must be <w>x<h>a<x>a<y> with a positive width and height, e.g. 200x100a10a20"


def _align(text: str) -> str | None:
    parts = text.split(",")
    if len(parts) == 2 and parts[0] in VALIGNS and parts[1] in HALIGNS:
        return None
    return (
        f"must be valign,halign with valign in {'/'.join(VALIGNS)}"
        f" and halign in {'/'.join(HALIGNS)}"
    )


def _margin(text: str) -> str | None:
    parts = text.split(",")
    if len(parts) == 2 and all(_is_integer(part) for part in parts):
        return None
    return "must be x,y with whole numbers of pixels, e.g. 20,20"


_BOOLEAN = _one_of(("true", "false"))

GMKERL_VALIDATORS: dict[str, Validator] = {
    "x-gmkerl-thumb": _pattern(re.compile(r"[\x21-\x7e]+"), "processing parameters without spaces"),
    "x-gmkerl-extract-color-count": _integer_between(1, EXTRACT_MAX_COLOURS),
    "x-gmkerl-extract-format": _one_of(EXTRACT_FORMATS),
    "x-gmkerl-thumbnail": _pattern(_VERSION_NAME, "a version name of letters, digits, _ . -"),
    "x-gmkerl-type": _one_of(GMKERL_TYPES),
    "x-gmkerl-value": lambda text: None,  # checked against x-gmkerl-type below
    "x-gmkerl-quality": _integer_between(1, 100),
    "x-gmkerl-unsharp": _BOOLEAN,
    "x-gmkerl-rotate": _rotate,
    "x-gmkerl-crop": _crop,
    "x-gmkerl-exif-switch": _BOOLEAN,
    "x-gmkerl-watermark-text": _pattern(_URL_ENCODED, "URL-encoded text, e.g. hello%20world"),
    "x-gmkerl-watermark-font": _one_of(WATERMARK_FONTS),
    "x-gmkerl-watermark-size": _integer_between(1, None),
    "x-gmkerl-watermark-align": _align,
    "x-gmkerl-watermark-margin": _margin,
    "x-gmkerl-watermark-opacity": _integer_between(0, 100),
    "x-gmkerl-watermark-color": _pattern(_COLOUR, "#RRGGBB, e.g. #000000"),
    "x-gmkerl-watermark-border": _pattern(_BORDER, "#RRGGBBAA (colour then alpha), e.g. #cccccccc"),
}


def gmkerl_header(name: str) -> str:
    """Lower-case header name; the `x-gmkerl-` prefix may be left out (`quality`)."""
    lowered = name.strip().lower()
    return lowered if lowered.startswith(GMKERL_PREFIX) else GMKERL_PREFIX + lowered


def _check_type_value(type_text: str | None, value_text: str | None) -> list[Problem]:
    """`x-gmkerl-type` and `x-gmkerl-value` only make sense together, and the type picks the
    value's shape."""
    if type_text is None and value_text is None:
        return []
    if value_text is None:
        return [
            Problem("x-gmkerl-value", "required", "x-gmkerl-value is required with x-gmkerl-type")
        ]
    if type_text is None:
        return [
            Problem("x-gmkerl-type", "required", "x-gmkerl-type is required with x-gmkerl-value")
        ]
    if type_text not in GMKERL_TYPES:
        return []  # already reported against x-gmkerl-type
    if type_text in GMKERL_TYPES_SIZE:
        error = _size(value_text)
    elif type_text == "fix_scale":
        error = _integer_between(1, 1000)(value_text)
    else:
        error = _integer_between(1, None)(value_text)
    if error is None:
        return []
    return [
        Problem(
            "x-gmkerl-value",
            "invalid",
            f"x-gmkerl-value {error} for x-gmkerl-type {type_text}, got {value_text!r}",
        )
    ]


def check_gmkerl(options: Mapping[str, object]) -> list[Problem]:
    """Every `x-gmkerl-*` header of an upload: known name, value type and value format."""
    problems: list[Problem] = []
    texts: dict[str, str] = {}
    for name, value in options.items():
        header = gmkerl_header(name)
        if header in texts:
            problems.append(Problem(header, "duplicate", f"{header} is given twice"))
            continue
        validator = GMKERL_VALIDATORS.get(header)
        if validator is None:
            problems.append(
                Problem(header, "unknown_header", f"{header} is not a known x-gmkerl header")
            )
            continue
        text = _as_text(value)
        if text is None:
            problems.append(
                Problem(header, "type", f"{header} must be text or a number, got {value!r}")
            )
            continue
        texts[header] = text
        error = validator(text)
        if error is not None:
            problems.append(Problem(header, "invalid", f"{header} {error}, got {text!r}"))
    problems += _check_type_value(texts.get("x-gmkerl-type"), texts.get("x-gmkerl-value"))
    return problems


def gmkerl_headers(options: Mapping[str, object]) -> dict[str, str]:
    """Validated `x-gmkerl-*` headers ready to send; raises `RuleViolation`."""
    require(check_gmkerl(options))
    return {gmkerl_header(name): str(_as_text(value)) for name, value in options.items()}


# --- listing ---------------------------------------------------------------------------------

MAX_LIST_LIMIT = 10_000
LIST_ORDERS = ("asc", "desc")


def check_list_options(limit: object, order: object) -> list[Problem]:
    """`x-list-limit` 1..10000 and `x-list-order` asc|desc."""
    problems: list[Problem] = []
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIST_LIMIT:
        problems.append(
            Problem(
                "x-list-limit",
                "out_of_range",
                f"x-list-limit must be a whole number from 1 to {MAX_LIST_LIMIT}, got {limit!r}",
            )
        )
    if order not in LIST_ORDERS:
        problems.append(
            Problem("x-list-order", "invalid", f"x-list-order must be asc or desc, got {order!r}")
        )
    return problems
