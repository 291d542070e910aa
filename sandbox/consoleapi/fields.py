"""Reading the console API's fields: every bad value is a 10400 naming its field."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from sandbox.consoleapi.errors import bad_field

SERVICE_NAME = re.compile(r"[a-z][a-z0-9-]{4,39}")
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
DOMAIN = re.compile(rf"{_LABEL}(?:\.{_LABEL})+")
LINES = ("auto", "telecom", "unicom", "cmcc")
MAX_ORIGINS = 20


def text(body: Mapping[str, Any], name: str, *, required: bool = True) -> str:
    value = body.get(name)
    if value is None or value == "":
        if required:
            raise bad_field(name, "is required")
        return ""
    if not isinstance(value, str):
        raise bad_field(name, "must be a string")
    return value


def service_name(body: Mapping[str, Any], name: str = "bucket_name") -> str:
    value = text(body, name)
    if not SERVICE_NAME.fullmatch(value):
        raise bad_field(name, "a service name is 5-40 of a-z 0-9 -, starting with a letter")
    return value


def domain_name(value: Any, name: str = "domain") -> str:
    """A host name: lowercase letters, digits and hyphens in dot-separated labels, no port."""
    if not isinstance(value, str) or not value:
        raise bad_field(name, "is required: a host name such as cdn.example.com")
    if not DOMAIN.fullmatch(value) or len(value) > 253:
        raise bad_field(name, f"{value!r} is not a host name (lowercase, no port, no scheme, "
                              "no trailing dot)")
    return value


def integer(body: Mapping[str, Any], name: str, *, default: int, minimum: int,
            maximum: int | None = None) -> int:
    value = body.get(name)
    if value is None or value == "":
        return default
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad_field(name, "must be a whole number")
    if value < minimum or (maximum is not None and value > maximum):
        upper = f" and at most {maximum}" if maximum is not None else ""
        raise bad_field(name, f"must be at least {minimum}{upper}")
    return value


def line(body: Mapping[str, Any]) -> str:
    value = body.get("line", "auto")
    if value not in LINES:
        raise bad_field("line", f"must be one of {', '.join(LINES)}")
    return str(value)


def origins(value: Any, name: str = "origins") -> list[dict[str, Any]]:
    """1-20 `{"address": "http(s)://host[:port]", "weight": 1-100, "backup": bool}`, at least
    one not a backup."""
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_ORIGINS:
        raise bad_field(name, f"must be a list of 1 to {MAX_ORIGINS} origins")
    cleaned = []
    for index, item in enumerate(value):
        field = f"{name}[{index}]"
        if not isinstance(item, dict):
            raise bad_field(field, "must be an object {address, weight, backup}")
        cleaned.append({"address": origin_address(item.get("address"), f"{field}.address"),
                        "weight": integer(item, "weight", default=1, minimum=1, maximum=100)
                        if "weight" in item else 1,
                        "backup": flag(item.get("backup", False), f"{field}.backup")})
        if isinstance(item.get("weight"), bool | float):
            raise bad_field(f"{field}.weight", "must be a whole number from 1 to 100")
    if all(origin["backup"] for origin in cleaned):
        raise bad_field(name, "at least one origin must not be a backup")
    return cleaned


def origin_address(value: Any, name: str) -> str:
    try:
        parts = urlsplit(value) if isinstance(value, str) else None
        port = parts.port if parts is not None else None
    except ValueError:
        parts, port = None, None
    if (parts is None or parts.scheme not in ("http", "https") or not parts.hostname
            or parts.path not in ("", "/") or parts.query or parts.fragment
            or parts.username or parts.password):
        raise bad_field(name, "must be http(s)://host[:port], without a path")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")


def flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise bad_field(name, "must be true or false")
    return value
