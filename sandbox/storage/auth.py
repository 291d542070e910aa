"""Request authentication: `Authorization: SVC <operator>:<signature>` with a fresh `Date`
(or `X-Date`, which wins when both are sent: `signature.signed_date`).

Checked in this order, each failure with its own code: a missing Authorization (40100004), a
malformed one (40100005), a missing, unreadable or stale date (40100002, 30 minutes either way
on the sandbox clock, whichever of the two headers carried it), an unknown bucket (40100012),
an unknown operator (40100006), and last the signature itself (40100005), under either scheme
of DECISIONS.md.
"""

from __future__ import annotations

from email.utils import parsedate_to_datetime

from django.http import HttpRequest

from sandbox.console import directory
from sandbox.core import clock
from sandbox.storage import errors
from sandbox.storage.errors import StorageError
from sandbox.storage.signature import signature_matches, signed_date, signed_path

DATE_WINDOW_S = 30 * 60
SCHEME = "SVC"


def authenticate(request: HttpRequest, bucket: str) -> None:
    """Raise StorageError unless one of the operators of the storage service `bucket`
    signed the request."""
    authorization = request.headers.get("Authorization", "").strip()
    if not authorization:
        raise StorageError(errors.NEED_AUTHORIZATION, "need authorization")
    operator, signature = parse_authorization(authorization)
    header, date = signed_date(request.headers)
    check_date(header, date)
    if not directory.is_storage_service(bucket):
        raise StorageError(errors.BUCKET_NOT_EXISTS, f"bucket not exist: {bucket}")
    password = directory.operator_password(bucket, operator)
    if password is None:  # an operator of another bucket is unknown here
        raise StorageError(errors.USER_NOT_EXISTS, f"user not exists: {operator}")
    method = (request.method or "GET").upper()
    uri = signed_path(request.path, request.META.get("QUERY_STRING", ""))
    if not signature_matches(
        signature, method=method, path=uri, date=date,
        content_length=signed_content_length(request, method),
        content_md5=request.headers.get("Content-MD5", "").strip(),
        password=password,
    ):
        raise StorageError(errors.SIGNATURE_ERROR, "signature error")


def parse_authorization(value: str) -> tuple[str, str]:
    scheme, _, credential = value.partition(" ")
    operator, colon, signature = credential.strip().partition(":")
    if scheme.upper() != SCHEME or not colon or not operator or not signature:
        raise StorageError(errors.SIGNATURE_ERROR,
                           "signature error: Authorization must be 'SVC <operator>:<signature>'")
    return operator, signature


def check_date(header: str, value: str) -> None:
    """`value` of the `header` the request is signed with ("" when neither date header came)."""
    if not header:
        raise StorageError(errors.DATE_OFFSET,
                           "date offset error: the Date header is missing (or X-Date in its place)")
    if not value:
        raise StorageError(errors.DATE_OFFSET, f"date offset error: the {header} header is empty")
    try:
        sent = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        sent = None
    if sent is None or sent.tzinfo is None:
        raise StorageError(errors.DATE_OFFSET,
                           f"date offset error: {header} must be an RFC 1123 GMT date")
    offset = sent.timestamp() - clock.now()
    if abs(offset) > DATE_WINDOW_S:
        raise StorageError(errors.DATE_OFFSET,
                           f"date offset error: {header} is {offset:+.0f} s from the server clock "
                           f"(at most {DATE_WINDOW_S} s allowed)")


def signed_content_length(request: HttpRequest, method: str) -> int:
    """CONTENT_LENGTH of the legacy scheme: 0 for GET and DELETE, else the header's value."""
    if method in ("GET", "DELETE"):
        return 0
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0
