"""Request authentication (api/authorization.md, DECISIONS.md).

Two forms of `Authorization`:
- `SVC <operator>:<signature>` with a fresh `Date` (or `X-Date`, which wins when both are sent:
  `signature.signed_date`), under either signature scheme;
- `Basic base64(<operator>:<password>)`, which needs no date (the REST API's basic
  authentication).

Checked in this order, each failure with the code of its own row: a missing Authorization
(40100004), another scheme (40100003), a malformed credential (40100005); for a signature, no
date (40100001), a date that cannot be read (40100016) or one more than 30 minutes from the
sandbox clock (40100002); then an unknown bucket (40100012), an unknown operator (40100006),
and last the password (40100009) or the signature (40100005).
"""

from __future__ import annotations

import base64
import binascii
import hmac
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

from django.http import HttpRequest

from sandbox.console import directory
from sandbox.core import clock
from sandbox.storage import errors
from sandbox.storage.errors import StorageError
from sandbox.storage.signature import signature_matches, signed_date, signed_path

DATE_WINDOW_S = 30 * 60
SCHEME = "SVC"
BASIC = "BASIC"


@dataclass(frozen=True)
class Credential:
    operator: str
    secret: str  # the signature, or the password of basic authentication
    basic: bool


def authenticate(request: HttpRequest, bucket: str) -> None:
    """Raise StorageError unless one of the operators of the storage service `bucket`
    signed the request (or named itself with its password)."""
    authorization = request.headers.get("Authorization", "").strip()
    if not authorization:
        raise StorageError(errors.NEED_AUTHORIZATION,
                           "send Authorization: SVC <operator>:<signature> or Basic")
    credential = parse_authorization(authorization)
    date = ""
    if not credential.basic:
        header, date = signed_date(request.headers)
        check_date(header, date)
    if not directory.is_storage_service(bucket):
        raise StorageError(errors.BUCKET_NOT_EXISTS, f"no storage service named {bucket!r}")
    password = directory.operator_password(bucket, credential.operator)
    if password is None:  # an operator of another bucket is unknown here
        raise StorageError(errors.USER_NOT_EXISTS,
                           f"{credential.operator!r} is not an operator of {bucket!r}")
    if credential.basic:
        if not hmac.compare_digest(credential.secret.encode(), password.encode()):
            raise StorageError(errors.USER_PASSWORD_ERROR,
                               f"wrong password for operator {credential.operator!r}")
        return
    method = (request.method or "GET").upper()
    uri = signed_path(request.path, request.META.get("QUERY_STRING", ""))
    if not signature_matches(
        credential.secret, method=method, path=uri, date=date,
        content_length=signed_content_length(request, method),
        content_md5=request.headers.get("Content-MD5", "").strip(),
        password=password,
    ):
        raise StorageError(errors.SIGNATURE_ERROR,
                           f"the signature does not match {method}&{uri}&{date}")


def parse_authorization(value: str) -> Credential:
    scheme, _, rest = value.partition(" ")
    rest = rest.strip()
    if scheme.upper() == BASIC:
        return parse_basic(rest)
    if scheme.upper() != SCHEME:
        raise StorageError(errors.UNKNOWN_REALM,
                           f"Authorization scheme {scheme!r}: use SVC or Basic")
    operator, colon, signature = rest.partition(":")
    if not colon or not operator or not signature:
        raise StorageError(errors.SIGNATURE_ERROR,
                           "Authorization must be 'SVC <operator>:<signature>'")
    return Credential(operator, signature, basic=False)


def parse_basic(encoded: str) -> Credential:
    try:
        text = base64.b64decode(encoded, validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        text = ""
    operator, colon, password = text.partition(":")
    if not colon or not operator:
        raise StorageError(errors.SIGNATURE_ERROR,
                           "Authorization must be 'Basic base64(<operator>:<password>)'")
    return Credential(operator, password, basic=True)


def check_date(header: str, value: str) -> None:
    """`value` of the `header` the request is signed with ("" when neither date header came)."""
    if not header:
        raise StorageError(errors.NEED_DATE, "send a Date header (or X-Date in its place)")
    if not value:
        raise StorageError(errors.NEED_DATE, f"the {header} header is empty")
    try:
        sent = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        sent = None
    if sent is None or sent.tzinfo is None:
        raise StorageError(errors.INVALID_DATE,
                           f"{header} must be an RFC 1123 GMT date, got {value!r}")
    offset = sent.timestamp() - clock.now()
    if abs(offset) > DATE_WINDOW_S:
        raise StorageError(errors.DATE_OFFSET,
                           f"{header} is {offset:+.0f} s from the server clock "
                           f"(at most {DATE_WINDOW_S} s allowed)")


def signed_content_length(request: HttpRequest, method: str) -> int:
    """CONTENT_LENGTH of the legacy scheme: 0 for GET and DELETE, else the header's value."""
    if method in ("GET", "DELETE"):
        return 0
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0
