"""Authentication of a media-processing request (DECISIONS.md, "Storage and media processing").

Only the current scheme is accepted here, as the spec says media processing uses it:
`Authorization: SVC <operator>:<base64(HMAC-SHA1(key=md5hex(password),
METHOD&PATH&DATE&Content-MD5))>`, where Content-MD5 is the md5hex of the JSON body and is
required (it is what makes the signature cover the body). Every failure is a 401, checked in
the order of the storage emulator: Authorization present and well formed, Date fresh (or
`X-Date`, which wins when both are sent, as in storage: `signed_date`), the
service (bucket) known, the operator known, Content-MD5 present and equal to the body's, and
last the signature itself, compared in constant time.
"""

from __future__ import annotations

import hmac
from email.utils import parsedate_to_datetime

from django.http import HttpRequest

from sandbox.console import directory
from sandbox.core import clock
from sandbox.media.errors import UNAUTHORIZED, MediaError
from sandbox.storage.signature import current_signature, md5_hex, signed_date, signed_path

DATE_WINDOW_S = 30 * 60
SCHEME = "SVC"


def refuse(message: str) -> MediaError:
    return MediaError(UNAUTHORIZED, message)


def authenticate(request: HttpRequest, service: str) -> None:
    """Raise a 401 MediaError unless an operator of the storage service `service` signed
    this request."""
    authorization = request.headers.get("Authorization", "").strip()
    if not authorization:
        raise refuse("need authorization: send Authorization: SVC <operator>:<signature>")
    operator, signature = parse_authorization(authorization)
    header, date = signed_date(request.headers)
    check_date(header, date)
    if not directory.is_storage_service(service):
        raise refuse(f"service not exist: {service}")
    password = directory.operator_password(service, operator)
    if password is None:  # an operator of another bucket is unknown here
        raise refuse(f"user not exists: {operator}")
    content_md5 = request.headers.get("Content-MD5", "").strip()
    if not content_md5:
        raise refuse("Content-MD5 is required: the md5 (hex) of the JSON body")
    if not hmac.compare_digest(content_md5.lower().encode(), md5_hex(request.body).encode()):
        raise refuse("Content-MD5 does not match the body")
    expected = current_signature(
        request.method or "POST", signed_path(request.path, request.META.get("QUERY_STRING", "")),
        date, password, content_md5,
    )
    if not hmac.compare_digest(signature.encode(), expected.encode()):
        raise refuse("signature error")


def parse_authorization(value: str) -> tuple[str, str]:
    scheme, _, credential = value.partition(" ")
    operator, colon, signature = credential.strip().partition(":")
    if scheme.upper() != SCHEME or not colon or not operator or not signature:
        raise refuse("signature error: Authorization must be 'SVC <operator>:<signature>'")
    return operator, signature


def check_date(header: str, value: str) -> None:
    """The signed date header (`X-Date` or `Date`, "" when neither came) must be an RFC 1123
    date within 30 minutes of the sandbox clock."""
    if not header:
        raise refuse("date offset error: the Date header is missing (or X-Date in its place)")
    if not value:
        raise refuse(f"date offset error: the {header} header is empty")
    try:
        sent = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        sent = None
    if sent is None or sent.tzinfo is None:
        raise refuse(f"date offset error: {header} must be an RFC 1123 GMT date")
    offset = sent.timestamp() - clock.now()
    if abs(offset) > DATE_WINDOW_S:
        raise refuse(f"date offset error: {header} is {offset:+.0f} s from the server clock "
                     f"(at most {DATE_WINDOW_S} s allowed)")
