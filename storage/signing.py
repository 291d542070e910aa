"""Request signatures of the storage provider (DECISIONS, "Storage and media processing").

Every function here is pure: it takes the exact strings that go on the wire and returns the
header value. The rule that keeps client and server in agreement is "sign what you send": the
URI passed in must be the one written in the request line, already percent-encoded by
`encode_uri`, so that the server, which only sees the encoded form, rebuilds the same string.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping, Sequence
from email.utils import formatdate
from typing import Literal
from urllib.parse import quote

Scheme = Literal["current", "legacy"]
SCHEMES: tuple[Scheme, ...] = ("current", "legacy")

# The header that carries the signed date. `Date` by default; the provider also takes `X-Date`
# in its place (its JavaScript SDK sends that, since a browser may not set `Date`), and checks
# `X-Date` when both are sent. Either way the same value is signed.
DateHeader = Literal["Date", "X-Date"]
DATE_HEADERS: tuple[DateHeader, ...] = ("Date", "X-Date")

# The scheme word of the Authorization header (the provider word is replaced by `svc`).
SCHEME_WORD = "SVC"


def md5_hex(data: bytes | str) -> str:
    """Lower-case hex MD5 of `data` (text is UTF-8 encoded first)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.md5(data).hexdigest()


def http_date(timestamp: float) -> str:
    """RFC 1123 date in GMT, e.g. `Wed, 29 Oct 2014 02:26:58 GMT`, for the `Date` (or `X-Date`)
    header."""
    return formatdate(timestamp, usegmt=True)


def encode_uri(path: str, query: Sequence[tuple[str, str | None]] = ()) -> str:
    """Percent-encode a request path and query exactly as it is sent and signed.

    The path keeps `/` and the unreserved characters (letters, digits, `-._~`); everything else,
    including `%`, is encoded from its UTF-8 bytes, so a name is always taken literally. A query
    item with value None is written as a bare key (`?usage`); keys and values are encoded with
    nothing kept, so that `&` and `=` inside them cannot change the query's shape.
    """
    uri = quote(path, safe="/")
    if query:
        items = [
            quote(key, safe="")
            if value is None
            else f"{quote(key, safe='')}={quote(value, safe='')}"
            for key, value in query
        ]
        uri += "?" + "&".join(items)
    return uri


def legacy_signature(method: str, uri: str, date: str, content_length: int, password: str) -> str:
    """Legacy scheme: md5hex(METHOD&PATH&DATE&CONTENT_LENGTH&md5hex(password)).

    `content_length` is the length of the body actually sent (0 for GET, HEAD and DELETE).
    """
    if content_length < 0:
        raise ValueError("content_length cannot be negative")
    plain = "&".join([method.upper(), uri, date, str(content_length), md5_hex(password)])
    return md5_hex(plain)


def current_signature(
    method: str, uri: str, date: str, password: str, content_md5: str | None = None
) -> str:
    """Current scheme: base64(HMAC-SHA1(key=md5hex(password), METHOD&PATH&DATE[&Content-MD5])).

    `content_md5` is appended only when the request carries a `Content-MD5` header; pass None
    (not an empty string) when it does not, because the server follows the header's presence.
    """
    parts = [method.upper(), uri, date]
    if content_md5 is not None:
        parts.append(content_md5)
    key = md5_hex(password).encode("ascii")
    digest = hmac.new(key, "&".join(parts).encode("utf-8"), hashlib.sha1).digest()
    return base64.b64encode(digest).decode("ascii")


def authorization(operator: str, signature: str) -> str:
    """The `Authorization` header value `SVC <operator>:<signature>`."""
    return f"{SCHEME_WORD} {operator}:{signature}"


def sign_request(
    *,
    scheme: Scheme,
    operator: str,
    password: str,
    method: str,
    uri: str,
    date: str,
    content_length: int,
    content_md5: str | None,
) -> str:
    """Authorization header for one storage request under the chosen scheme.

    Both schemes are fed the same facts so the caller does not branch; each takes the ones it
    needs (the legacy scheme ignores Content-MD5, the current one ignores the length).
    """
    if scheme == "legacy":
        signature = legacy_signature(method, uri, date, content_length, password)
    elif scheme == "current":
        signature = current_signature(method, uri, date, password, content_md5)
    else:
        raise ValueError(f"unknown signature scheme {scheme!r}; use one of {', '.join(SCHEMES)}")
    return authorization(operator, signature)


def purge_authorization(
    urls: Iterable[str], bucket: str, operator: str, password: str, date: str
) -> str:
    """Purge `Authorization` value: `SVC <bucket>:<operator>:<md5hex(URLS&BUCKET&DATE&md5hex(pw))>`.

    URLS is the URLs joined by `\\n`, the same text as the `purge` form field.
    """
    joined = "\n".join(urls)
    if not joined:
        raise ValueError("purge needs at least one URL")
    digest = md5_hex("&".join([joined, bucket, date, md5_hex(password)]))
    return f"{SCHEME_WORD} {bucket}:{operator}:{digest}"


def form_policy(parameters: Mapping[str, str | int]) -> str:
    """FORM API `policy`: the Base64 of the upload parameters as compact UTF-8 JSON
    (api/authorization.md "Policy 算法": UTF-8, no line breaks)."""
    text = json.dumps(dict(parameters), ensure_ascii=False, separators=(",", ":"))
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def form_authorization(
    operator: str, password: str, uri: str, policy: str, *, date: str = "", content_md5: str = ""
) -> str:
    """FORM API `authorization` field (api/authorization.md, "放在 HTTP Body 中"):
    `SVC <operator>:base64(HMAC-SHA1(md5hex(password), POST&URI[&Date]&Policy[&Content-MD5]))`,
    where Date and Content-MD5 are the policy's `date` and `content-md5` when it has them."""
    parts = ["POST", uri, *([date] if date else []), policy]
    if content_md5:
        parts.append(content_md5)
    digest = hmac.new(md5_hex(password).encode(), "&".join(parts).encode(), hashlib.sha1).digest()
    return authorization(operator, base64.b64encode(digest).decode())
