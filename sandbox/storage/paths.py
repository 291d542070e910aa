"""Paths inside a bucket: one normal form, so that `/a//b/`, `/a/b` and `/a/b/` are one object.

A normal path starts with `/`, has no empty segment and no trailing slash; the bucket root is
`/`. A row stores its parent folder's normal path and its own name, which is what the listing
index (bucket, parent, name) is built on.
"""

from __future__ import annotations

import re

from sandbox.storage.errors import INVALID_CHARS, WRONG_URI, StorageError

ROOT = "/"
# Names are columns of the tab-separated, line-based listing: no control characters.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def normalize(raw: str) -> str:
    """The normal form of a decoded path below the bucket; refuses `.`/`..` and control chars."""
    segments = [segment for segment in raw.split("/") if segment]
    for segment in segments:
        if segment in (".", ".."):
            raise StorageError(WRONG_URI, f"path segment {segment!r} is not allowed")
        if _CONTROL.search(segment):
            raise StorageError(INVALID_CHARS, "names cannot contain control characters")
    return "/" + "/".join(segments)


def split(path: str) -> tuple[str, str]:
    """(parent folder, name) of a normal path other than the root."""
    if path == ROOT:
        raise StorageError(WRONG_URI, "the bucket root has no name")
    parent, _, name = path.rpartition("/")
    return parent or ROOT, name


def join(parent: str, name: str) -> str:
    return f"{parent.rstrip('/')}/{name}"


def ancestors(path: str) -> list[str]:
    """The folders above a normal path, outermost first, without the root."""
    segments = path.strip("/").split("/")[:-1]
    return ["/" + "/".join(segments[: index + 1]) for index in range(len(segments))]
