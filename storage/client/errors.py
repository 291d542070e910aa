"""The storage service's typed errors, and how an error answer becomes one."""

from __future__ import annotations

from collections.abc import Mapping

from requests.structures import CaseInsensitiveDict


class StorageError(Exception):
    """An error answer of the storage service, or a failure to get one.

    `code` is the provider's 8-digit code (None when the answer carried none), `msg` its text
    (for a code of the error table, that row's message), `detail` the provider's explanation
    beside it when it gives one, `request_id` the provider's `id` for support, `status` the
    HTTP status (0 when no answer arrived) and `headers` the answer's headers (some errors carry
    data there).
    """

    def __init__(
        self,
        msg: str,
        *,
        code: int | None = None,
        request_id: str | None = None,
        status: int = 0,
        headers: Mapping[str, str] | None = None,
        detail: str = "",
    ) -> None:
        self.msg = msg
        self.detail = detail
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


class BadRequest(StorageError):
    """HTTP 400 without a class of its own (40000000 "storage bad request" among them)."""


class Forbidden(StorageError):
    """HTTP 403 without a class of its own."""


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


class DuplicatePart(MultipartError):
    """40001031: in parallel mode, a part id sent a second time."""


class MultipartCompleted(MultipartError):
    """40001036: the task was already completed (an earlier answer may have been lost)."""


class MultipartIncomplete(MultipartError):
    """40001037: completion asked before every part was sent."""


class PartIdError(MultipartError):
    """40011061: not the part the task expects next; `next_part_id` is the one it wants."""

    @property
    def next_part_id(self) -> int | None:
        return int_header(self.headers, "x-svc-next-part-id")


class PartAlreadyComplete(PartIdError):
    """40011062: every part is in already (`next_part_id` is -1): complete the upload."""


class CopyError(StorageError):
    """A copy or move was refused (40000040-40000044)."""


class CopyOtherBucket(CopyError):
    """40000040: the source is in another bucket."""


class CopySameKey(CopyError):
    """40000041: the source and the target are the same path."""


class CopySourceInvalid(CopyError):
    """40000042: no file at the source (nothing there, or a folder)."""


class MetadataDirectiveInvalid(CopyError):
    """40000043: the metadata directive is neither copy nor replace."""


class MetadataRequired(CopyError):
    """40000044: replace was asked without any metadata."""


class PreprocessingError(StorageError):
    """An `x-gmkerl-*` preprocessing value or a thumbnail setting was refused."""


class NotAnImage(PreprocessingError):
    """40300018: preprocessing was asked for a file that is not an image."""


class InvalidTTL(StorageError):
    """40011092: `x-svc-meta-ttl` is not a whole number of days from 1 to 180."""


class PathConflict(StorageError):
    """40600001: a folder where a file should be, or the reverse."""


class AuthenticationError(StorageError):
    """HTTP 401: the request's credentials or signature were refused."""


class DateMissing(AuthenticationError):
    """40100001: the request carried no date."""


class DateInvalid(AuthenticationError):
    """40100016: the date could not be read."""


class PasswordError(AuthenticationError):
    """40100009: wrong password (basic authentication)."""


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


# Errors worth repeating on an idempotent call: the request may succeed unchanged later.
RETRYABLE_ERRORS: tuple[type[StorageError], ...] = (
    TooManyRequests,
    ServerError,
    StorageConnectionError,
)


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
