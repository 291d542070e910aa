"""Bounds on what a client may send: how deeply its JSON nests, and how much of a body is read.

Python's json module recurses once per level of nesting, so a body of 100,000 brackets
exhausts the stack (RecursionError: a 500 and a traceback) before any of our checks sees it.
`check_json_depth` measures the nesting first, without recursion, and every endpoint that reads
JSON (the merchant API through `BoundedJSONParser`, the top-up callback, the staff JSON
endpoints through `loads`) refuses a body nested deeper than `MAX_JSON_DEPTH` with a 400
naming the problem.

`read_body` reads at most `limit + 1` bytes of a request's body, whatever it declares: a body
announced (Content-Length) or found (chunked) to be larger is refused without reading the
rest, and what was read is kept as evidence.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import accumulate
from typing import IO, Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from providerkit.json_types import JSONValue

# Deeper than any document we accept (the deepest, a rule-set test, nests 3 levels) and far
# below the interpreter's recursion limit (1000), which the json module would reach first.
MAX_JSON_DEPTH = 64

# A JSON string, escapes included (the unrolled form, linear on long strings): brackets inside
# strings are text, not nesting.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


class JsonTooDeep(ValueError):
    """The body nests deeper than the limit; its message is the reader's text."""


def json_depth(data: bytes | str) -> int:
    """The deepest nesting of brackets outside strings (0 for a scalar), without recursion."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def check_json_depth(data: bytes | str, limit: int = MAX_JSON_DEPTH) -> None:
    """JsonTooDeep when `data` nests deeper than `limit`.

    The common case costs two counts in C: a body with no more opening brackets than the
    limit cannot nest deeper, so only a body with many brackets is scanned.
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return
    if json_depth(raw) > limit:
        raise JsonTooDeep(_("The JSON is nested deeper than %(limit)d levels.")
                          % {"limit": limit})


def loads(data: bytes | str, limit: int = MAX_JSON_DEPTH) -> JSONValue:
    """`json.loads` that refuses deep nesting first (JsonTooDeep, a ValueError, like a syntax
    error: callers that catch ValueError for "not JSON" keep working)."""
    check_json_depth(data, limit)
    value: JSONValue = json.loads(data)
    return value


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with the depth check: the default parser of every API view
    (settings' REST_FRAMEWORK), so a deep body is a 400 `{"detail": ...}`, never a 500."""

    def parse(self, stream: IO[Any] | None, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        data = stream.read() if stream is not None else b""
        try:
            check_json_depth(data)
        except JsonTooDeep as error:
            raise ParseError(str(error)) from None
        return super().parse(io.BytesIO(data), media_type, parser_context)


@dataclass(frozen=True)
class BoundedBody:
    """What was read of a body: `data` (at most the limit), its `size` (declared by
    Content-Length, else the bytes read: limit + 1 for a chunked body over the limit) and
    whether it was over the limit."""

    data: bytes
    size: int
    too_large: bool
    declared: bool = True  # size is the Content-Length (else what a chunked body gave)

    def describe_size(self) -> str:
        if self.declared:
            return f"{self.size} bytes (Content-Length)"
        return f"more than {len(self.data)} bytes (chunked)" if self.too_large \
            else f"{self.size} bytes (chunked)"


def declared_length(request: HttpRequest) -> int | None:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None
    return length if length >= 0 else None


def read_body(request: HttpRequest, limit: int) -> BoundedBody:
    """At most `limit` bytes of the body, refusing a larger one before reading it whole.

    With a Content-Length, a larger declaration is refused at once and only the first `limit`
    bytes are read (kept as evidence). Without one (chunked; the server marks such a stream
    `wsgi.input_terminated`), `limit + 1` bytes are read at most: one byte more than the limit
    proves the body too large.
    """
    declared = declared_length(request)
    if declared is not None:
        data = request.read(min(declared, limit))
        return BoundedBody(data, declared, declared > limit)
    stream = request.META.get("wsgi.input")
    if not request.META.get("wsgi.input_terminated") or stream is None:
        return BoundedBody(b"", 0, False)  # no length and no terminated stream: no body
    data = _read_at_most(stream, limit + 1)
    return BoundedBody(data[:limit], len(data), len(data) > limit, declared=False)


def _read_at_most(stream: IO[bytes], size: int) -> bytes:
    chunks, left = [], size
    while left > 0:
        chunk = stream.read(left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
