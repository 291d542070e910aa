"""The edge's own URL parameters (content-delivery.md, "URL parameters"): `_upv` and `_upd`
read from the query the edge serves (after any rewrite), `_upt`/`_upp` from the request as sent.

- `_upv`: exactly two digits; anything else is refused (400).
- `_upd`: `true` (keep the original name) or a file name: 1 to 255 characters, no `/`, `\\` or
  control characters; an empty value is refused (400). Non-ASCII names arrive percent-encoded
  in UTF-8 and are allowed.
- With parameter-follow on, `_upd` is ineffective (the spec) and `_upv` is part of the cache key
  like any parameter; `_upt` and `_upp` never are (they are access control, not content).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl

from sandbox.delivery.errors import bad_parameter

ACCESS_PARAMETERS = ("_upt", "_upp")
_UPV = re.compile(r"[0-9]{2}")
_BAD_NAME = re.compile(r"[/\\\x00-\x1f\x7f]")
MAX_NAME = 255


def parameters(query: str) -> dict[str, str]:
    """First value of each parameter, percent-decoded as UTF-8 (400 when it is not UTF-8)."""
    try:
        pairs = parse_qsl(query, keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        raise bad_parameter("the query string is not valid UTF-8 once decoded") from None
    values: dict[str, str] = {}
    for name, value in pairs:
        values.setdefault(name, value)
    return values


def cache_bypass(values: dict[str, str]) -> bool:
    """True when `_upv` is given (checked)."""
    upv = values.get("_upv")
    if upv is None:
        return False
    if not _UPV.fullmatch(upv):
        raise bad_parameter(f"_upv must be two digits from 00 to 99, got {upv!r}")
    return True


def download_name(values: dict[str, str]) -> str | None:
    """The `_upd` value checked: "true", a file name, or None when absent."""
    upd = values.get("_upd")
    if upd is None or upd == "true":
        return upd
    if not upd.strip():
        raise bad_parameter("_upd must be true or a file name, got an empty value")
    if len(upd) > MAX_NAME or _BAD_NAME.search(upd):
        raise bad_parameter("_upd must be a file name of at most 255 characters without "
                            "/, \\ or control characters")
    return upd


def followed(query: str) -> str:
    """The query as a cache key part: every parameter but the access ones, in order."""
    kept = [item for item in query.split("&")
            if item and item.partition("=")[0] not in ACCESS_PARAMETERS]
    return "&".join(kept)
