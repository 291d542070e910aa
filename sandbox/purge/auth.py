"""Purge request authentication (DECISIONS.md, "Storage and media processing", purge):

    Authorization: SVC <bucket>:<operator>:<md5hex(URLS&BUCKET&DATE&md5hex(password))>

URLS is the `purge` field exactly as sent (URLs separated by `\\n`), DATE the `Date` header,
which must be an RFC 1123 date within 30 minutes of the sandbox clock either way. Checked in
this order, each 401 with api/purge.md's text: missing Authorization (`Need Authorization
Header`), malformed (`Sign error`), missing Date (`Need Date Header`), an unreadable or stale
Date (`Date offset error`: the page has no text of its own for an unreadable one), unknown
bucket (`Bucket is not exists`), unknown operator (`User is not exists`), wrong signature
(`Sign error`). The signature is compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
from email.utils import parsedate_to_datetime

from sandbox.console import directory
from sandbox.core import clock
from sandbox.purge import errors
from sandbox.purge.errors import PurgeError

SCHEME = "SVC"
DATE_WINDOW_S = 30 * 60


def md5_hex(text: str) -> str:
    return hashlib.md5(text.encode()).hexdigest()


def signature(urls: str, bucket: str, date: str, password: str) -> str:
    return md5_hex(f"{urls}&{bucket}&{date}&{md5_hex(password)}")


def authenticate(authorization: str, date: str, urls: str) -> None:
    """Raise PurgeError unless an operator of the storage service it names signed it."""
    authorization = authorization.strip()
    if not authorization:
        raise PurgeError(errors.NEED_AUTHORIZATION, detail="the Authorization header is missing")
    bucket, operator, sent = parse_authorization(authorization)
    check_date(date)
    if not directory.is_storage_service(bucket):
        raise PurgeError(errors.BUCKET_NOT_EXISTS, detail=f"no storage service {bucket!r}")
    password = directory.operator_password(bucket, operator)
    if password is None:  # an operator of another bucket is unknown here
        raise PurgeError(errors.USER_NOT_EXISTS,
                         detail=f"{operator!r} is not an operator of {bucket!r}")
    expected = signature(urls, bucket, date, password)
    if not hmac.compare_digest(expected.encode(), sent.lower().encode()):
        raise PurgeError(errors.SIGNATURE_ERROR, detail="the signature does not match "
                         "md5hex(URLS&BUCKET&DATE&md5hex(password))")


def parse_authorization(value: str) -> tuple[str, str, str]:
    scheme, _, credential = value.partition(" ")
    parts = credential.strip().split(":")
    if scheme.upper() != SCHEME or len(parts) != 3 or not all(parts):
        raise PurgeError(errors.SIGNATURE_ERROR, detail="Authorization must be "
                                                        "'SVC <bucket>:<operator>:<signature>'")
    bucket, operator, sent = parts
    return bucket, operator, sent


def check_date(value: str) -> None:
    if not value:
        raise PurgeError(errors.NEED_DATE, detail="the Date header is missing")
    try:
        sent = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        sent = None
    if sent is None or sent.tzinfo is None:
        raise PurgeError(errors.DATE_OFFSET, detail="Date must be an RFC 1123 GMT date")
    offset = sent.timestamp() - clock.now()
    if abs(offset) > DATE_WINDOW_S:
        raise PurgeError(errors.DATE_OFFSET,
                         detail=f"Date is {offset:+.0f} s from the server clock "
                                f"(at most {DATE_WINDOW_S} s allowed)")
