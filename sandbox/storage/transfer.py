"""Copy and move (the official SDKs' `copy` / `move`; DECISIONS.md, errno 40000040-40000044).

`PUT /<bucket>/<to>` with an empty body and `x-svc-copy-source: /<bucket>/<from>` (or
`x-svc-move-source`), and optionally `x-svc-metadata-directive`: `copy` (the default) keeps the
source's metadata, `replace` takes the request's `x-svc-meta-*` (at least one: 40000044).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import unquote

from sandbox.storage import errors, metadata, paths
from sandbox.storage.errors import StorageError

COPY = "x-svc-copy-source"
MOVE = "x-svc-move-source"
DIRECTIVE = "x-svc-metadata-directive"
DIRECTIVES = ("copy", "replace")


@dataclass(frozen=True)
class Transfer:
    source: str  # normal path inside the bucket
    move: bool
    metadata: dict[str, str] | None  # None: keep the source's


def is_transfer(headers: Mapping[str, str]) -> bool:
    return COPY in headers or MOVE in headers


def parse(headers: Mapping[str, str], bucket: str, content_length: int) -> Transfer:
    """The copy or move a PUT asks for, refused before anything is touched."""
    if COPY in headers and MOVE in headers:
        raise StorageError(errors.BAD_REQUEST, f"send {COPY} or {MOVE}, not both")
    move = MOVE in headers
    name = MOVE if move else COPY
    if content_length:
        raise StorageError(errors.BAD_REQUEST, f"a PUT with {name} takes no body")
    raw = unquote(headers[name].strip())
    source_bucket, slash, source = raw.removeprefix("/").partition("/")
    if not raw.startswith("/") or not source_bucket:
        raise StorageError(errors.COPY_SOURCE_WRONG,
                           f"{name} must be /<bucket>/<path>, got {headers[name]!r}")
    if source_bucket != bucket:
        raise StorageError(errors.COPY_OTHER_BUCKET,
                           f"{name} names the bucket {source_bucket!r}, the target is in "
                           f"{bucket!r}")
    if not slash or paths.normalize(source) == paths.ROOT:
        raise StorageError(errors.COPY_SOURCE_WRONG, f"{name} names no file, only the bucket")
    directive = headers.get(DIRECTIVE, "copy").strip().lower()
    if directive not in DIRECTIVES:
        raise StorageError(errors.WRONG_METADATA_DIRECTIVE,
                           f"{DIRECTIVE} must be copy or replace, got {headers[DIRECTIVE]!r}")
    given: dict[str, str] | None = None
    if directive == "replace":
        given = metadata.from_headers(headers)
        if not given:
            raise StorageError(errors.NEED_METADATA,
                               f"{DIRECTIVE}: replace takes the request's x-svc-meta-* headers, "
                               "and it has none")
        metadata.validate(given)
    return Transfer(source=paths.normalize(source), move=move, metadata=given)
