"""Folder listing: the request headers, the page iterator and the two body formats.

The iterator (`x-list-iter` / `x-svc-list-iter`) is the Base64 of the last name returned, so a
page is a keyset query on the (bucket, parent, name) index: as fast on page 250 as on page 1.
The provider's end marker (`g2gCZAAEbmV4dGQAA2VvZg`, the Base64 of an Erlang `{next, eof}`)
can never be confused with a name: it does not decode to UTF-8.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from dataclasses import dataclass

from sandbox.storage import errors
from sandbox.storage.errors import StorageError
from sandbox.storage.store import StoredObject
from sandbox.storage.values import is_whole

END = "g2gCZAAEbmV4dGQAA2VvZg"
DEFAULT_LIMIT = 100
MAX_LIMIT = 10_000


@dataclass(frozen=True)
class Page:
    after: str | None
    at_end: bool
    limit: int
    descending: bool
    as_json: bool


def page_from_headers(headers: Mapping[str, str]) -> Page:
    raw_limit = headers.get("x-list-limit", str(DEFAULT_LIMIT)).strip()
    if not is_whole(raw_limit) or not 1 <= int(raw_limit) <= MAX_LIMIT:
        raise StorageError(errors.BAD_REQUEST,
                           f"x-list-limit must be a whole number from 1 to {MAX_LIMIT}, "
                           f"got {raw_limit!r}")
    order = headers.get("x-list-order", "asc").strip().lower()
    if order not in ("asc", "desc"):
        raise StorageError(errors.ORDER_ASC_OR_DESC, f"x-list-order: got {order!r}")
    raw_iter = headers.get("x-list-iter", "").strip()
    after = None
    if raw_iter and raw_iter != END:
        after = decode_iter(raw_iter)
    return Page(after=after, at_end=raw_iter == END, limit=int(raw_limit),
                descending=order == "desc",
                as_json="application/json" in headers.get("Accept", "").lower())


def encode_iter(last_name: str) -> str:
    return base64.b64encode(last_name.encode()).decode()


def decode_iter(value: str) -> str:
    try:
        return base64.b64decode(value, validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        raise StorageError(errors.ITER_ARGS_INVALID,
                           "x-list-iter is not a value returned in x-svc-list-iter") from None


def next_iter(items: list[StoredObject], more: bool) -> str:
    return encode_iter(items[-1].name) if more and items else END


def render(items: list[StoredObject], iterator: str, as_json: bool) -> tuple[str, str]:
    """(body, content type) of one page."""
    if as_json:
        files = [
            {"type": "folder" if item.is_folder else item.mime_type, "length": item.size,
             "name": item.name, "last_modified": int(item.modified_at)}
            for item in items
        ]
        return json.dumps({"files": files, "iter": iterator}), "application/json"
    lines = [
        f"{item.name}\t{'F' if item.is_folder else 'N'}\t{item.size}\t{int(item.modified_at)}"
        for item in items
    ]
    return "\n".join(lines), "text/plain; charset=utf-8"
