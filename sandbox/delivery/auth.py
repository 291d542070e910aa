"""Token protection (`_upt`, content-delivery.md "Authentication" and DECISIONS.md).

`_upt` = md5hex(`<secret>&<etime>&<URI>`)[12:20] + etime; the URL is valid until etime on the
sandbox clock (refused once the clock has passed etime). `_upp=N` (0 to 20)
signs the URI cut to its first N directory levels; any other value, or one deeper than the
path's folders, signs the full URI.

The URI is the path as the client requested it (before any rewrite), without the query. A
client may sign it percent-encoded as sent or decoded (the spec does not say which for names
outside ASCII), so the edge accepts a signature over either spelling.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterable

MAX_LEVEL = 20
SIGNATURE_LENGTH = 8
_DIGITS = re.compile(r"[0-9]+")


def signature(secret: str, etime: str, uri: str) -> str:
    digest = hashlib.md5(f"{secret}&{etime}&{uri}".encode()).hexdigest()
    return digest[12:20]


def signed_uri(uri: str, upp: str | None) -> str:
    """The part of `uri` a `_upp` value asks to sign."""
    if upp is None or not _DIGITS.fullmatch(upp) or int(upp) > MAX_LEVEL:
        return uri
    level = int(upp)
    folders = uri.split("/")[1:-1]
    if level > len(folders):
        return uri
    return "/" + "".join(f"{folder}/" for folder in folders[:level])


def verify(secret: str, upt: str | None, upp: str | None, uris: Iterable[str],
           now: float) -> bool:
    """True when `upt` is a current token for one of the spellings in `uris`."""
    if not upt or len(upt) <= SIGNATURE_LENGTH:
        return False
    sent, etime = upt[:SIGNATURE_LENGTH], upt[SIGNATURE_LENGTH:]
    if not _DIGITS.fullmatch(etime) or int(etime) < now:
        return False
    given = sent.encode()
    matches = [hmac.compare_digest(signature(secret, etime, signed_uri(uri, upp)).encode(), given)
               for uri in dict.fromkeys(uris)]
    return any(matches)
