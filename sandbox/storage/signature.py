"""The two signature schemes of DECISIONS.md, as pure functions (no Django, no clock).

- legacy:  md5hex(METHOD&PATH&DATE&CONTENT_LENGTH&md5hex(password))
- current: base64(HMAC-SHA1(key=md5hex(password), METHOD&PATH&DATE[&Content-MD5]))

PATH is the URL-encoded request path (`/` and unreserved characters kept) including the bucket
and the query string as sent. DATE is the `X-Date` header when one is sent, else `Date`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Mapping
from urllib.parse import quote

# The provider's JavaScript SDK signs `X-Date`, because a browser may not set `Date`; when a
# request carries both, `X-Date` is the one signed and checked (DECISIONS.md).
DATE_HEADERS = ("X-Date", "Date")


def md5_hex(data: str | bytes) -> str:
    raw = data.encode() if isinstance(data, str) else data
    return hashlib.md5(raw).hexdigest()


def signed_date(headers: Mapping[str, str]) -> tuple[str, str]:
    """(name, value) of the date header the request is signed with; ("", "") when it has none.

    `headers` is a case-insensitive mapping (Django's `request.headers`).

    A header that is present counts even when empty, so an empty `X-Date` is refused as
    missing rather than quietly replaced by `Date`.
    """
    for name in DATE_HEADERS:
        if name in headers:
            return name, headers[name]
    return "", ""


def signed_path(path: str, query: str = "") -> str:
    """PATH of both schemes: the decoded request path re-encoded, plus `?query` when present."""
    encoded = quote(path, safe="/")
    return f"{encoded}?{query}" if query else encoded


def legacy_signature(method: str, path: str, date: str, content_length: int,
                     password: str) -> str:
    text = "&".join([method.upper(), path, date, str(content_length), md5_hex(password)])
    return md5_hex(text)


def current_signature(method: str, path: str, date: str, password: str,
                      content_md5: str = "") -> str:
    """`&Content-MD5` is part of the string only when the header carries a value."""
    parts = [method.upper(), path, date]
    if content_md5:
        parts.append(content_md5)
    digest = hmac.new(md5_hex(password).encode(), "&".join(parts).encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode()


def signature_matches(signature: str, *, method: str, path: str, date: str, content_length: int,
                      content_md5: str, password: str) -> bool:
    """True when `signature` is valid under either scheme; compared in constant time."""
    legacy = legacy_signature(method, path, date, content_length, password)
    current = current_signature(method, path, date, password, content_md5)
    given = signature.encode()
    # Evaluate both comparisons, so the time taken does not say which scheme came close.
    legacy_ok = hmac.compare_digest(given, legacy.encode())
    current_ok = hmac.compare_digest(given, current.encode())
    return legacy_ok or current_ok
