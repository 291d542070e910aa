"""How long the edge keeps an own-origin answer (cdn/basic.md, "缓存配置"), in seconds; 0 means
not at all.

Our console has no cache rules (docs/decisions.md), so the provider's order reduces to: the
origin's own headers, then the default policy.
1. Only 2xx and 3xx answers are kept; an answer that sets a cookie is never kept (it is one
   visitor's).
2. The origin's `Cache-Control`: `no-store`, `no-cache` or `private` keep nothing;
   `s-maxage`, else `max-age`, is the time. Else its `Expires` (against its `Date`).
3. The default: a static answer (by Content-Type first, else by the path's extension, from the
   provider's lists) is kept 8 days, a 301 2 hours, a 302 20 minutes; a dynamic one (an HTML
   page, say) is not kept.
Mirrored answers are kept for the mirror's cache time instead (mirror.py).
"""

from __future__ import annotations

import re
from email.utils import parsedate_to_datetime

from sandbox.delivery.upstream import OriginAnswer

DAY = 86400
STATIC_SECONDS = 8 * DAY
REDIRECT_SECONDS = {301: 2 * 3600, 302: 20 * 60}
STATIC_TYPES = frozenset({
    "text/css", "text/javascript", "application/javascript", "application/x-javascript",
    "image/gif", "image/png", "image/jpeg", "image/webp", "image/tiff", "image/x-icon",
    "image/x-ms-bmp", "image/svg+xml", "application/font-woff", "application/java-archive",
    "application/msword", "application/pdf", "application/postscript", "application/zip",
    "application/octet-stream",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "audio/mpeg", "audio/ogg", "audio/x-m4a", "video/mp4", "video/x-flv", "video/x-m4v",
})
STATIC_EXTENSIONS = frozenset({
    "css", "js", "jpg", "jpeg", "gif", "ico", "png", "bmp", "pict", "csv", "doc", "pdf", "pls",
    "ppt", "tif", "tiff", "eps", "ejs", "swf", "midi", "mida", "ttf", "eot", "woff", "otf",
    "svg", "svgz", "webp", "docx", "xlsx", "xls", "pptx", "ps", "class", "jar", "bz2", "bzip",
    "exe", "flv", "gzip", "rar", "rtf", "tgz", "gz", "txt", "zip", "mp3", "mp4", "ogg", "m4a",
    "m4v", "apk",
})
_DIRECTIVE = re.compile(r"\s*([a-z-]+)\s*(?:=\s*\"?(\d+)\"?)?\s*", re.IGNORECASE)


def cache_seconds(answer: OriginAnswer, path: str, now: float) -> int:
    """`now`: the sandbox clock, for an `Expires` without the origin's `Date`."""
    if not 200 <= answer.status < 400 or answer.header("Set-Cookie") is not None:
        return 0
    declared = _declared(answer, now)
    if declared is not None:
        return declared
    if answer.status in REDIRECT_SECONDS:
        return REDIRECT_SECONDS[answer.status]
    return STATIC_SECONDS if is_static(answer.header("Content-Type"), path) else 0


def is_static(content_type: str | None, path: str) -> bool:
    if content_type:
        return content_type.split(";")[0].strip().lower() in STATIC_TYPES
    name = path.rsplit("/", 1)[-1]
    return "." in name and name.rsplit(".", 1)[1].lower() in STATIC_EXTENSIONS


def _declared(answer: OriginAnswer, now: float) -> int | None:
    """The time the origin's headers give, or None when they give none."""
    control = answer.header("Cache-Control")
    if control:
        directives: dict[str, str | None] = {}
        for part in control.split(","):
            match = _DIRECTIVE.fullmatch(part)
            if match:
                directives[match.group(1).lower()] = match.group(2)
        if {"no-store", "no-cache", "private"} & directives.keys():
            return 0
        for name in ("s-maxage", "max-age"):
            value = directives.get(name)
            if value is not None:
                return int(value)
    expires = answer.header("Expires")
    if expires:
        return _seconds_until(expires, answer.header("Date"), now)
    return None


def _seconds_until(expires: str, date: str | None, now: float) -> int:
    try:
        until = parsedate_to_datetime(expires)
        since = parsedate_to_datetime(date) if date else None
    except (TypeError, ValueError):
        return 0  # an invalid Expires means "already expired" (RFC 9111)
    if since is None:
        return max(0, int(until.timestamp() - now))
    return max(0, int((until - since).total_seconds()))
