"""File metadata: `x-svc-meta-*` headers, the secret and the TTL, and the PATCH options.

Names are kept lowercase (header names are case-insensitive). The secret is the metadata entry
`x-svc-meta-secret`; `Content-Secret` on upload is another way to set it. `x-svc-meta-ttl` is a
whole number of days, 1 to 180, counted from the last upload of the content.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from sandbox.storage import errors
from sandbox.storage.errors import StorageError

PREFIX = "x-svc-meta-"
SECRET = PREFIX + "secret"
TTL = PREFIX + "ttl"
MAX_TTL_DAYS = 180
DAY_S = 86_400
PATCH_OPTIONS = ("merge", "replace", "delete")
_SECRET_PATTERN = re.compile(r"[A-Za-z0-9]+")
_TTL_PATTERN = re.compile(r"[0-9]+")


def from_headers(headers: Mapping[str, str], *, content_secret: bool = True) -> dict[str, str]:
    """The metadata a request carries; `Content-Secret` counts as `x-svc-meta-secret`."""
    found: dict[str, str] = {}
    for name, value in headers.items():
        lowered = name.lower()
        if lowered.startswith(PREFIX):
            if lowered == PREFIX:
                raise StorageError(errors.META_INVALID, f"{name}: a metadata header needs a name")
            found[lowered] = value.strip()
    secret = headers.get("Content-Secret")
    if content_secret and secret is not None:
        found[SECRET] = secret.strip()
    return found


def validate(metadata: Mapping[str, str]) -> None:
    if SECRET in metadata and not _SECRET_PATTERN.fullmatch(metadata[SECRET]):
        raise StorageError(errors.BAD_CONTENT_SECRET,
                           f"the secret {metadata[SECRET]!r} holds other characters")
    if TTL in metadata:
        ttl_days(metadata)


def ttl_days(metadata: Mapping[str, str]) -> int | None:
    raw = metadata.get(TTL)
    if raw is None:
        return None
    if not _TTL_PATTERN.fullmatch(raw) or not 1 <= int(raw) <= MAX_TTL_DAYS:
        raise StorageError(errors.INVALID_FILE_TTL,
                           f"{TTL} must be a whole number of days from 1 to {MAX_TTL_DAYS}, "
                           f"got {raw!r}")
    return int(raw)


def expiry(metadata: Mapping[str, str], uploaded_at: float) -> float | None:
    days = ttl_days(metadata)
    return None if days is None else uploaded_at + days * DAY_S


def patched(existing: Mapping[str, str], incoming: Mapping[str, str],
            option: str) -> dict[str, str]:
    """merge: incoming values win; replace: only the incoming; delete: drop the named ones."""
    if option == "merge":
        return {**existing, **incoming}
    if option == "replace":
        return dict(incoming)
    if option == "delete":
        return {name: value for name, value in existing.items() if name not in incoming}
    raise StorageError(errors.META_INVALID,
                       f"metadata must be one of {', '.join(PATCH_OPTIONS)}, got {option!r}")
