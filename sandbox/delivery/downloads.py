"""`Content-Disposition` for forced downloads (`_upd`).

An ASCII name is sent as `attachment; filename="<name>"`. A name outside ASCII (a Chinese name,
say) adds RFC 6266 / RFC 5987 `filename*=UTF-8''<percent-encoded>`, which browsers prefer,
after a `filename="..."` fallback in which each non-ASCII character becomes `_` for clients
that only read the plain parameter.
"""

from __future__ import annotations

from urllib.parse import quote


def content_disposition(name: str) -> str:
    fallback = "".join(char if char.isascii() else "_" for char in name)
    quoted = fallback.replace("\\", "\\\\").replace('"', '\\"')
    value = f'attachment; filename="{quoted}"'
    if not name.isascii():
        value += f"; filename*=UTF-8''{quote(name, safe='')}"
    return value
