"""The storage service's typed errors, and how an error answer becomes one."""

from __future__ import annotations

from collections.abc import Mapping

import requests
from requests.structures import CaseInsensitiveDict


class StorageError(Exception):
    """An error answer of the storage service, or a failure to get one.

    `code` is the provider's 8-digit code (None when the answer carried none), `msg` its text,
    `request_id` the provider's `id` for support, `status` the HTTP status (0 when no answer
    arrived) and `headers` the answer's headers (some errors carry data there).
    """

    def __init__(
        self,
        msg: str,
        *,
        code: int | None = None,
        request_id: str | None = None,
        status: int = 0,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.msg = msg
        self.code = code
        self.request_id = request_id
        self.status = status
        self.headers: CaseInsensitiveDict[str] = CaseInsensitiveDict(headers or {})
        super().__init__(
            f"{msg} (code {code}, HTTP {status})" if code else f"{msg} (HTTP {status})"
        )


class StorageConnectionError(StorageError):
    """No answer: connection refused or reset, timeout, or a body cut short."""


class StorageProtocolError(StorageError):
    """An answer that does not follow the spec (unparseable listing, usage, header)."""


class BadContentMD5(StorageError):
    """40001001: the Content-MD5 sent does not match the body received."""


class FileMD5Mismatch(StorageError):
    """40011060: the whole-file MD5 of a resumable upload does not match the parts stored."""


class MultipartError(StorageError):
    """A resumable-upload task refused the request."""


class MultipartUUIDInvalid(MultipartError):
    """40001023: the `x-svc-multi-uuid` is malformed."""


class MultipartPartIdInvalid(MultipartError):
    """40001030: the `x-svc-part-id` is malformed."""


class MultipartNotFound(MultipartError):
    """40001035: no such task; unfinished tasks are removed after 24 hours."""


class MultipartCompleted(MultipartError):
    """40001036: the task was already completed (an earlier answer may have been lost)."""


class MultipartIncomplete(MultipartError):
    """40001037: completion asked before every part was sent."""


class PartIdError(MultipartError):
    """40011061: not the part the task expects next; `next_part_id` is the one it wants."""

    @property
    def next_part_id(self) -> int | None:
        return int_header(self.headers, "x-svc-next-part-id")


class AuthenticationError(StorageError):
    """HTTP 401: the request's credentials or signature were refused."""


class DateOffset(AuthenticationError):
    """40100002: the `Date` header is more than 30 minutes from the server's clock."""


class AuthorizationRequired(AuthenticationError):
    """40100004: no Authorization header."""


class SignatureError(AuthenticationError):
    """40100005: the signature does not match (wrong password, path or date)."""


class UserNotFound(AuthenticationError):
    """40100006: no such operator."""


class BucketNotFound(AuthenticationError):
    """40100012: no such bucket."""


class DirectoryNotEmpty(StorageError):
    """40300005: only an empty directory can be removed."""


class InvalidSecret(StorageError):
    """40300016: Content-Secret must be letters and digits."""


class NotFound(StorageError):
    """40400001: no file or directory at that path."""


class FolderExists(StorageError):
    """40600002: the directory already exists."""


class TooManyRequests(StorageError):
    """42900002 / HTTP 429: rate limited; repeated with backoff when the call is idempotent."""


class ServerError(StorageError):
    """HTTP 5xx: the provider failed; repeated with backoff when the call is idempotent."""


class ServiceUnavailable(ServerError):
    """50300001: service unavailable."""


ERRORS_BY_CODE: dict[int, type[StorageError]] = {
    40001001: BadContentMD5,
    40001023: MultipartUUIDInvalid,
    40001030: MultipartPartIdInvalid,
    40001035: MultipartNotFound,
    40001036: MultipartCompleted,
    40001037: MultipartIncomplete,
    40011060: FileMD5Mismatch,
    40011061: PartIdError,
    40100002: DateOffset,
    40100004: AuthorizationRequired,
    40100005: SignatureError,
    40100006: UserNotFound,
    40100012: BucketNotFound,
    40300005: DirectoryNotEmpty,
    40300016: InvalidSecret,
    40400001: NotFound,
    40600002: FolderExists,
    42900002: TooManyRequests,
    50300001: ServiceUnavailable,
}

# Errors worth repeating on an idempotent call: the request may succeed unchanged later.
RETRYABLE_ERRORS: tuple[type[StorageError], ...] = (
    TooManyRequests,
    ServerError,
    StorageConnectionError,
)


def _error_class_for_status(status: int) -> type[StorageError]:
    """Class for an answer without a known code (HEAD has no body, proxies answer in HTML)."""
    if status == 401:
        return AuthenticationError
    if status == 404:
        return NotFound
    if status == 429:
        return TooManyRequests
    if status == 503:
        return ServiceUnavailable
    if status >= 500:
        return ServerError
    return StorageError


def error_from_response(response: requests.Response) -> StorageError:
    """Typed error for a 4xx/5xx answer whose body is `{"msg", "code", "id"}` (or anything)."""
    headers = dict(response.headers)
    code: int | None = None
    msg = response.reason or "error"
    request_id: str | None = None
    try:
        payload = response.json()
    except ValueError:
        payload = None
    if isinstance(payload, dict):
        code = as_int(payload.get("code"))
        msg = str(payload.get("msg") or msg)
        request_id = str(payload["id"]) if payload.get("id") is not None else None
    if code is None:
        # A HEAD answer has no body; the code may then come in a header.
        code = int_header(response.headers, "x-error-code")
    cls = ERRORS_BY_CODE.get(code) if code is not None else None
    if cls is None:
        cls = _error_class_for_status(response.status_code)
    return cls(msg, code=code, request_id=request_id, status=response.status_code, headers=headers)


def as_int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return None


def int_header(headers: Mapping[str, str], name: str) -> int | None:
    """Integer header value; `headers` must be case-insensitive (as requests' are)."""
    value = headers.get(name)
    return as_int(value) if value is not None else None
