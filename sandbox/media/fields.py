"""The request body of a media call and its fields, each refused with a 400 that names it.

Storage paths (`m3u8s`, `m3u8`, `source`, `save_as`) are paths inside the service's bucket,
starting with `/` and without the bucket name (`/videos/a.m3u8`), the way the storage API
addresses files below `/<bucket>`. They are normalised as storage does (repeated and trailing
slashes dropped); `.` and `..` segments and control characters are refused.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from django.http import HttpRequest

from sandbox.core.json_types import JSONObject
from sandbox.core.jsonapi import NotAJsonObject, json_object
from sandbox.media.errors import bad

MAX_PATH_LENGTH = 1024
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def body_of(request: HttpRequest) -> JSONObject:
    """The JSON object of the request; the spec sends `Content-Type: application/json`."""
    if request.content_type != "application/json":
        sent = request.content_type or "nothing"
        raise bad("Content-Type", f"must be application/json, got {sent}")
    try:
        return json_object(request.body)
    except NotAJsonObject as error:
        raise bad("body", str(error)) from None


def only(body: JSONObject, allowed: tuple[str, ...], endpoint: str) -> None:
    """Refuse fields the endpoint does not have: a misspelt optional field would otherwise be
    silently ignored and the call would do something else than asked."""
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise bad(unknown[0], f"is not a field of {endpoint} (fields: {', '.join(allowed)})")


def given(body: JSONObject, name: str) -> bool:
    return body.get(name) is not None


def boolean(body: JSONObject, name: str, default: bool) -> bool:
    if not given(body, name):
        return default
    value = body[name]
    if not isinstance(value, bool):
        raise bad(name, "must be true or false")
    return value


def storage_path(value: Any, name: str) -> str:
    """The normal form of a path inside the bucket, naming a file (not the bucket root)."""
    if not isinstance(value, str):
        raise bad(name, "must be a string: a storage path such as /videos/a.m3u8")
    if not value.strip():
        raise bad(name, "is required")
    if not value.startswith("/"):
        raise bad(name, f"must be a storage path starting with / (such as /videos/a.m3u8), "
                        f"got {value!r}")
    if len(value) > MAX_PATH_LENGTH:
        raise bad(name, f"is longer than {MAX_PATH_LENGTH} characters")
    segments = [segment for segment in value.split("/") if segment]
    for segment in segments:
        if segment in (".", ".."):
            raise bad(name, f"segment {segment!r} is not allowed in a storage path")
        if _CONTROL.search(segment):
            raise bad(name, "a storage path cannot contain control characters")
    if not segments:
        raise bad(name, "names the bucket root; give the path of a file")
    return "/" + "/".join(segments)


def required_path(body: JSONObject, name: str) -> str:
    if not given(body, name):
        raise bad(name, "is required")
    return storage_path(body[name], name)


def path_list(body: JSONObject, name: str, maximum: int) -> list[str]:
    if not given(body, name):
        raise bad(name, "is required")
    value = body[name]
    if not isinstance(value, list):
        raise bad(name, "must be an array of storage paths")
    if not value:
        raise bad(name, "must name at least one playlist")
    if len(value) > maximum:
        raise bad(name, f"names {len(value)} playlists; at most {maximum} are accepted")
    return [storage_path(item, f"{name}[{position}]") for position, item in enumerate(value)]


def finite_number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise bad(name, f"must be a number, got {json.dumps(value)}")
    if not math.isfinite(value):
        raise bad(name, "must be a finite number")
    return float(value)
