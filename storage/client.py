"""Client of the provider's object storage REST interface (spec part A, DECISIONS).

One `StorageClient` per bucket and operator. Every call is signed (`storage.signing`), checked
against the spec's rules before it leaves (`storage.rules`), and its error answer is turned into
a typed `StorageError`. Two kinds of repeat are built in, both bounded:

- a 40100002 "date offset" answer means our clock disagrees with the provider's; the client
  learns the offset from the answer's `Date` header and repeats the call once;
- 429 and 5xx answers (and network failures) of idempotent calls (GET, HEAD, DELETE and the PUT
  of a whole file) are repeated with exponential backoff. POST and PATCH are never repeated
  blindly: the caller queries first.

Files are streamed both ways in fixed-size chunks, so memory stays flat whatever their size.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import IO, Any, BinaryIO, Literal
from urllib.parse import urlsplit

import requests
from requests.structures import CaseInsensitiveDict
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential

from storage import rules
from storage.signing import (
    DATE_HEADERS,
    SCHEMES,
    DateHeader,
    Scheme,
    encode_uri,
    http_date,
    sign_request,
)

logger = logging.getLogger(__name__)

CHUNK_SIZE = 64 * 1024
DEFAULT_TIMEOUT = 30.0
# The provider accepts a Date within 30 minutes of its clock; beyond half of that, an uncoded
# 401 (a HEAD answer has no body) is taken for a date-offset refusal.
CLOCK_TOLERANCE_S = 15 * 60
# `x-svc-list-iter` value that marks the last page of a listing.
LIST_END = "g2gCZAAEbmV4dGQAA2VvZg"

Source = BinaryIO | str | os.PathLike[str]
MetadataOption = Literal["merge", "replace"]


# --- errors ----------------------------------------------------------------------------------


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
        return _int_header(self.headers, "x-svc-next-part-id")


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
        code = _as_int(payload.get("code"))
        msg = str(payload.get("msg") or msg)
        request_id = str(payload["id"]) if payload.get("id") is not None else None
    if code is None:
        # A HEAD answer has no body; the code may then come in a header.
        code = _int_header(response.headers, "x-error-code")
    cls = ERRORS_BY_CODE.get(code) if code is not None else None
    if cls is None:
        cls = _error_class_for_status(response.status_code)
    return cls(msg, code=code, request_id=request_id, status=response.status_code, headers=headers)


def _as_int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return None


def _int_header(headers: Mapping[str, str], name: str) -> int | None:
    """Integer header value; `headers` must be case-insensitive (as requests' are)."""
    value = headers.get(name)
    return _as_int(value) if value is not None else None


# --- results ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class UploadResult:
    """Answer to a whole-file PUT. The image fields are set only for images uploaded with
    `x-gmkerl-*` headers (the provider then reports what it stored)."""

    size: int
    content_md5: str | None
    width: int | None = None
    height: int | None = None
    file_type: str | None = None
    frames: int | None = None


@dataclass(frozen=True)
class DownloadResult:
    """What was written: byte count and MD5 computed while streaming, plus the answer's
    content type and metadata (bare lower-case names, e.g. `{"ttl": "30"}`)."""

    size: int
    md5: str
    content_type: str | None
    metadata: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FileInfo:
    """HEAD answer: `type` is `file` or `folder`; fields the answer lacks are None."""

    type: str | None
    size: int | None
    date: datetime | None
    md5: str | None


@dataclass(frozen=True)
class ListItem:
    """One directory entry; `content_type` is the MIME type (JSON listings only)."""

    name: str
    is_folder: bool
    size: int
    last_modified: int
    content_type: str | None = None


@dataclass(frozen=True)
class ListPage:
    """One page of a listing; pass `next_iter` back to get the following page."""

    items: list[ListItem]
    next_iter: str | None

    @property
    def is_last(self) -> bool:
        return not self.next_iter or self.next_iter == LIST_END


@dataclass(frozen=True)
class RetryPolicy:
    """Backoff for idempotent calls: `attempts` in all, waits `initial_wait`, then doubled,
    capped at `max_wait` seconds. `sleep` is injectable so tests do not wait."""

    attempts: int = 4
    initial_wait: float = 0.5
    max_wait: float = 8.0
    sleep: Callable[[float], None] = time.sleep


# --- streaming helpers -----------------------------------------------------------------------


class FileBody:
    """A fixed byte range of a seekable file, sent as a request body in chunks.

    `requests` learns the length from `__len__` (so it sends Content-Length, never chunked
    encoding) and `http.client` pulls blocks through `read`; the range is exact even if the
    file grows meanwhile, and `rewind` lets the same body be sent again on a retry.
    """

    def __init__(self, file: IO[bytes], start: int, length: int) -> None:
        self._file = file
        self._start = start
        self._length = length
        self._remaining = length
        self.rewind()

    def rewind(self) -> None:
        self._file.seek(self._start)
        self._remaining = self._length

    def __len__(self) -> int:
        return self._length

    def read(self, size: int = -1) -> bytes:
        if self._remaining <= 0:
            return b""
        wanted = self._remaining if size is None or size < 0 else min(size, self._remaining)
        data = self._file.read(wanted)
        self._remaining -= len(data)
        return data

    def __iter__(self) -> Iterator[bytes]:
        while chunk := self.read(CHUNK_SIZE):
            yield chunk


class NotifyingBody:
    """Bytes sent as a request body that call `on_sent` once the last byte is handed to the
    socket: from then on the sender only waits for the answer, so work started there (reading
    the next part of a file) no longer competes with sending this one.

    `requests` learns the length from `__len__` and sends the bytes in one piece; a retry
    iterates again and calls `on_sent` again.
    """

    def __init__(self, data: bytes, on_sent: Callable[[], None]) -> None:
        self.data = data
        self._on_sent = on_sent

    def __len__(self) -> int:
        return len(self.data)

    def __iter__(self) -> Iterator[bytes]:
        yield self.data
        self._on_sent()


Body = bytes | FileBody | NotifyingBody


def file_size(file: IO[bytes]) -> int:
    """Size of a seekable binary file; refuses streams we could not replay or hash."""
    if not file.seekable():
        raise ValueError("the file must be seekable (a regular file or an in-memory buffer)")
    position = file.tell()
    size = file.seek(0, os.SEEK_END)
    file.seek(position)
    return size


def file_md5(file: IO[bytes]) -> str:
    """MD5 hex of a whole seekable file, read chunk by chunk so memory stays flat; the file
    is left at its start, ready to be sent."""
    digest = hashlib.md5()
    file.seek(0)
    while chunk := file.read(CHUNK_SIZE):
        digest.update(chunk)
    file.seek(0)
    return digest.hexdigest()


def open_source(source: Source, stack: ExitStack) -> IO[bytes]:
    """A binary file for `source`: opened (and closed by `stack`) when it is a path."""
    if isinstance(source, str | os.PathLike):
        return stack.enter_context(open(source, "rb"))
    mode = getattr(source, "mode", "rb")
    if isinstance(mode, str) and "b" not in mode:
        raise ValueError("open the file in binary mode ('rb')")
    return source


# --- the client ------------------------------------------------------------------------------


class OpenDownload:
    """An answered GET whose body has not been read yet.

    `chunks()` streams it and closes the connection at the end, or when the consumer stops
    early (a browser that cancels); a body cut short raises StorageConnectionError.
    """

    def __init__(self, path: str, response: requests.Response) -> None:
        self.path = path
        self._response = response
        length = response.headers.get("Content-Length")
        self.size: int | None = int(length) if length and length.isdigit() else None
        self.content_type: str | None = response.headers.get("Content-Type")
        self.metadata: dict[str, str] = _metadata_from(response.headers)

    def chunks(self) -> Iterator[bytes]:
        try:
            yield from self._response.iter_content(chunk_size=CHUNK_SIZE)
        except requests.RequestException as exc:
            raise StorageConnectionError(f"download of {self.path} interrupted: {exc}") from exc
        finally:
            self._response.close()

    def close(self) -> None:
        self._response.close()


class StorageClient:
    """Signed calls to `/<bucket>/...` of the storage service.

    Paths are names inside the bucket (`photos/a.jpg`, with or without a leading `/`); they
    are checked by `rules.normalise_path` and percent-encoded here, so callers pass plain names.
    A session that trusts the environment is given its proxy and CA-bundle settings once, at
    construction, and then stops reading it (see `_settle_environment`). `date_header` names
    the header that carries the signed date: `Date` (default) or `X-Date`.
    """

    def __init__(
        self,
        base_url: str,
        bucket: str,
        operator: str,
        password: str,
        scheme: Scheme = "current",
        timeout: float = DEFAULT_TIMEOUT,
        session: requests.Session | None = None,
        *,
        retry: RetryPolicy | None = None,
        clock: Callable[[], float] = time.time,
        date_header: DateHeader = "Date",
    ) -> None:
        self.base_url = _check_base_url(base_url)
        if not bucket or "/" in bucket:
            raise ValueError(f"bucket must be a non-empty name without '/', got {bucket!r}")
        if not operator or ":" in operator:
            raise ValueError("operator must be a non-empty name without ':'")
        if scheme not in SCHEMES:
            raise ValueError(f"scheme must be one of {', '.join(SCHEMES)}, got {scheme!r}")
        if date_header not in DATE_HEADERS:
            raise ValueError(
                f"date_header must be one of {', '.join(DATE_HEADERS)}, got {date_header!r}"
            )
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        self.bucket = bucket
        self.operator = operator
        self._password = password
        self.scheme: Scheme = scheme
        self.date_header: DateHeader = date_header
        self.timeout = timeout
        self.session = session or requests.Session()
        _settle_environment(self.session, self.base_url)
        self.retry = retry or RetryPolicy()
        self._clock = clock
        # Seconds to add to our clock to match the provider's; learnt from 40100002 answers.
        self.clock_offset = 0.0

    def __repr__(self) -> str:  # never show the password
        return (
            f"StorageClient({self.base_url!r}, bucket={self.bucket!r}, operator={self.operator!r})"
        )

    # --- files ---

    def upload(
        self,
        path: str,
        source: Source,
        *,
        content_type: str | None = None,
        content_md5: bool | str = True,
        secret: str | None = None,
        metadata: Mapping[str, object] | None = None,
        ttl_days: int | None = None,
        gmkerl: Mapping[str, object] | None = None,
    ) -> UploadResult:
        """PUT a whole file (always from its first byte), streamed.

        `content_md5`: True computes the MD5 in a streaming pass and sends it as Content-MD5
        so the provider checks the body; False sends none; a string is sent as given.
        `ttl_days` is a shorthand for `metadata={"ttl": ...}`; `gmkerl` holds `x-gmkerl-*`
        preprocessing headers (prefix optional).
        """
        rules.normalise_path(path)  # fail before reading the file
        headers = self._upload_headers(
            content_type, content_md5, secret, metadata, ttl_days, gmkerl
        )
        with ExitStack() as stack:
            file = open_source(source, stack)
            size = file_size(file)
            md5 = content_md5 if isinstance(content_md5, str) else None
            if content_md5 is True:
                md5 = file_md5(file)
            body: Body = FileBody(file, 0, size) if size else b""
            response = self.send(
                "PUT", path, headers=headers, body=body, content_md5=md5, idempotent=True
            )
        return UploadResult(
            size=size,
            content_md5=md5,
            width=_int_header(response.headers, "x-svc-width"),
            height=_int_header(response.headers, "x-svc-height"),
            file_type=response.headers.get("x-svc-file-type"),
            frames=_int_header(response.headers, "x-svc-frames"),
        )

    def _upload_headers(
        self,
        content_type: str | None,
        content_md5: bool | str,
        secret: str | None,
        metadata: Mapping[str, object] | None,
        ttl_days: int | None,
        gmkerl: Mapping[str, object] | None,
    ) -> dict[str, str]:
        """Every upload header, validated together so one error lists every mistake."""
        meta = dict(metadata or {})
        problems: list[rules.Problem] = []
        if ttl_days is not None:
            if any(rules.meta_name(name) == rules.TTL_NAME for name in meta):
                problems.append(
                    rules.Problem(
                        "x-svc-meta-ttl", "duplicate", "give ttl_days or metadata ttl, not both"
                    )
                )
            meta[rules.TTL_NAME] = ttl_days
        problems += rules.check_metadata(meta)
        if secret is not None:
            problems += rules.check_secret(secret)
        if isinstance(content_md5, str):
            problems += rules.check_content_md5(content_md5)
        if content_type is not None:
            problems += rules.check_meta_value("Content-Type", content_type)
        problems += rules.check_gmkerl(gmkerl or {})
        rules.require(problems)
        headers = rules.metadata_headers(meta)
        headers.update(rules.gmkerl_headers(gmkerl or {}))
        if content_type is not None:
            headers["Content-Type"] = content_type
        if secret is not None:
            headers["Content-Secret"] = secret
        return headers

    def download(self, path: str, destination: BinaryIO | str | os.PathLike[str]) -> DownloadResult:
        """GET a file and write it to `destination` in chunks.

        A destination path is opened only once the provider has answered 200, so a missing
        file never truncates an existing local one. A body cut short raises
        `StorageConnectionError` (it is not repeated: part of it is already written).
        """
        body = self.open_download(path)
        digest = hashlib.md5()
        size = 0
        with ExitStack() as stack:
            stack.callback(body.close)
            if isinstance(destination, str | os.PathLike):
                target: IO[bytes] = stack.enter_context(open(destination, "wb"))
            else:
                target = destination
            for chunk in body.chunks():
                target.write(chunk)
                digest.update(chunk)
                size += len(chunk)
        return DownloadResult(
            size=size, md5=digest.hexdigest(), content_type=body.content_type,
            metadata=body.metadata,
        )

    def open_download(self, path: str) -> OpenDownload:
        """Start a streamed GET of a file: the provider's refusals (NotFound...) are raised
        here, before the caller passes on any byte; the body is read by iterating
        `OpenDownload.chunks()`."""
        return OpenDownload(path, self.send("GET", path, idempotent=True, stream=True))

    def delete(self, path: str, *, asynchronous: bool = False) -> None:
        """DELETE a file; `asynchronous` asks the provider to do it later (answered at once,
        and not subject to the synchronous delete's rate limit)."""
        headers = {"x-svc-async": "true"} if asynchronous else {}
        self.send("DELETE", path, headers=headers, idempotent=True).close()

    def head(self, path: str) -> FileInfo:
        """HEAD a file or folder: type, size, creation date and MD5."""
        response = self.send("HEAD", path, idempotent=True)
        response.close()
        headers = response.headers
        return FileInfo(
            type=headers.get("x-svc-file-type"),
            size=_int_header(headers, "x-svc-file-size"),
            date=_parse_file_date(headers.get("x-svc-file-date")),
            md5=headers.get("Content-Md5"),
        )

    def exists(self, path: str) -> bool:
        """Whether a file or folder is at `path` (a HEAD); other failures raise."""
        try:
            self.head(path)
        except NotFound:
            return False
        return True

    # --- folders ---

    def create_folder(self, path: str) -> None:
        """POST `folder: true`; FolderExists if it is already there (never repeated)."""
        self.send("POST", path, headers={"folder": "true"}, idempotent=False).close()

    def remove_folder(self, path: str) -> None:
        """DELETE an empty folder; DirectoryNotEmpty otherwise."""
        self.send("DELETE", path, idempotent=True).close()

    def list_page(
        self,
        path: str = "/",
        *,
        cursor: str | None = None,
        limit: int = 100,
        order: str = "asc",
        as_json: bool = True,
    ) -> ListPage:
        """One page of a folder listing from `cursor` (the previous page's `next_iter`;
        None for the first page), sent as `x-list-iter`."""
        rules.require(rules.check_list_options(limit, order))
        headers = {"x-list-limit": str(limit), "x-list-order": order}
        if cursor:
            headers["x-list-iter"] = cursor
        if as_json:
            headers["Accept"] = "application/json"
        response = self.send("GET", path, headers=headers, idempotent=True, allow_root=True)
        next_iter = response.headers.get("x-svc-list-iter")
        if _is_json(response):
            items, body_iter = _parse_json_listing(response)
            next_iter = next_iter or body_iter
        else:
            items = _parse_text_listing(response.text)
        return ListPage(items=items, next_iter=next_iter)

    def iter_list(
        self, path: str = "/", *, limit: int = 100, order: str = "asc", as_json: bool = True
    ) -> Iterator[ListItem]:
        """Every entry of a folder, page after page, until the end marker."""
        cursor: str | None = None
        while True:
            page = self.list_page(path, cursor=cursor, limit=limit, order=order, as_json=as_json)
            yield from page.items
            if page.is_last:
                return
            if page.next_iter == cursor:
                raise StorageProtocolError(f"listing of {path} returned the same cursor twice")
            cursor = page.next_iter

    # --- bucket and metadata ---

    def usage(self) -> int:
        """Bytes used by the bucket (`GET /<bucket>/?usage`)."""
        response = self.send("GET", "/", query=[("usage", None)], idempotent=True, allow_root=True)
        text = response.text.strip()
        if not text.isdigit():
            raise StorageProtocolError(f"usage answer is not a byte count: {text[:80]!r}")
        return int(text)

    def patch_metadata(
        self,
        path: str,
        metadata: Mapping[str, object],
        *,
        option: MetadataOption = "merge",
        update_last_modified: bool = False,
    ) -> None:
        """PATCH `?metadata=merge` (same-named entries replaced) or `replace` (all replaced).

        Names `ttl` and `secret` act on the lifetime and the file secret.
        """
        if option not in ("merge", "replace"):
            raise ValueError("option must be merge or replace; use delete_metadata to remove")
        if not metadata:
            raise ValueError("metadata is empty: nothing to change")
        self._patch(path, rules.metadata_headers(metadata), option, update_last_modified)

    def delete_metadata(
        self, path: str, names: Iterable[str], *, update_last_modified: bool = False
    ) -> None:
        """PATCH `?metadata=delete` removing the named entries (values are not needed)."""
        names = list(names)
        if not names:
            raise ValueError("names is empty: nothing to delete")
        problems = [problem for name in names for problem in rules.check_meta_name(name)]
        rules.require(problems)
        # The provider reads only the header names here; its own example sends `true`.
        headers = {rules.meta_header(name): "true" for name in names}
        self._patch(path, headers, "delete", update_last_modified)

    def _patch(
        self, path: str, headers: dict[str, str], option: str, update_last_modified: bool
    ) -> None:
        query: list[tuple[str, str | None]] = [("metadata", option)]
        if update_last_modified:
            query.append(("update_last_modified", "true"))
        self.send("PATCH", path, query=query, headers=headers, idempotent=False).close()

    # --- transport ---

    def send(
        self,
        method: str,
        path: str,
        *,
        query: Sequence[tuple[str, str | None]] = (),
        headers: Mapping[str, str] | None = None,
        body: Body | None = None,
        content_md5: str | None = None,
        idempotent: bool,
        stream: bool = False,
        allow_root: bool = False,
    ) -> requests.Response:
        """One signed request to `/<bucket><path>`; returns a 2xx answer or raises.

        The building block of every call, public for protocol extensions (resumable upload).
        `idempotent` allows backoff retries on 429/5xx/network failures; a date-offset answer
        is corrected and repeated once whatever the method, since the provider refused it
        before doing anything.
        """
        uri = encode_uri(
            f"/{self.bucket}{rules.normalise_path(path, allow_root=allow_root)}", query
        )
        request = _Request(method, uri, dict(headers or {}), body, content_md5, idempotent, stream)
        try:
            return self._send_with_backoff(request)
        except DateOffset as error:
            if not self._learn_clock(error):
                raise
            logger.info("storage clock offset corrected to %.0f s", self.clock_offset)
            return self._send_with_backoff(request)
        except AuthenticationError as error:
            # A HEAD answer has no body, so a date-offset refusal arrives without its code;
            # the answer's own Date then shows whether our clock is outside the window.
            if error.code is not None or not self._clock_is_off(error):
                raise
            if not self._learn_clock(error):
                raise
            logger.info("storage clock offset corrected to %.0f s (uncoded 401)", self.clock_offset)
            return self._send_with_backoff(request)

    def _send_with_backoff(self, request: _Request) -> requests.Response:
        if not request.idempotent:
            return self._attempt(request)
        retrying = Retrying(
            stop=stop_after_attempt(self.retry.attempts),
            wait=wait_exponential(multiplier=self.retry.initial_wait, max=self.retry.max_wait),
            retry=retry_if_exception_type(RETRYABLE_ERRORS),
            sleep=self.retry.sleep,
            reraise=True,
        )
        return retrying(self._attempt, request)

    def _attempt(self, request: _Request) -> requests.Response:
        body = request.body
        if isinstance(body, FileBody):
            body.rewind()
        length = len(body) if body is not None else 0
        date = http_date(self._clock() + self.clock_offset)
        headers = dict(request.headers)
        headers[self.date_header] = date
        if request.content_md5 is not None:
            headers["Content-MD5"] = request.content_md5
        if request.method in ("PUT", "POST", "PATCH"):
            headers["Content-Length"] = str(length)
        headers["Authorization"] = sign_request(
            scheme=self.scheme,
            operator=self.operator,
            password=self._password,
            method=request.method,
            uri=request.uri,
            date=date,
            content_length=length,
            content_md5=request.content_md5,
        )
        try:
            response = self.session.request(
                request.method,
                self.base_url + request.uri,
                headers=headers,
                data=body,
                timeout=self.timeout,
                stream=request.stream,
                allow_redirects=False,
            )
        except (requests.ConnectionError, requests.Timeout) as exc:
            raise StorageConnectionError(f"{request.method} {request.uri} failed: {exc}") from exc
        logger.debug("%s %s -> %s", request.method, request.uri, response.status_code)
        if response.status_code >= 400:
            error = error_from_response(response)
            response.close()
            raise error
        return response

    def _clock_is_off(self, error: StorageError) -> bool:
        """True when the answer's Date is further from our corrected clock than the provider
        tolerates (so an uncoded 401 is most likely a date-offset refusal)."""
        server_time = _server_time(error)
        if server_time is None:
            return False
        return abs(server_time - (self._clock() + self.clock_offset)) > CLOCK_TOLERANCE_S

    def _learn_clock(self, error: AuthenticationError) -> bool:
        """Set `clock_offset` from the refusing answer's `Date`; False when it has none."""
        server_time = _server_time(error)
        if server_time is None:
            return False
        self.clock_offset = server_time - self._clock()
        return True


def _server_time(error: StorageError) -> float | None:
    """The provider's clock from an answer's `Date` header, None when missing or unreadable."""
    server_date = error.headers.get("Date")
    if not server_date:
        return None
    try:
        return parsedate_to_datetime(server_date).timestamp()
    except (TypeError, ValueError):
        return None


def _settle_environment(session: requests.Session, base_url: str) -> None:
    """Read the environment's proxy and CA-bundle settings for `base_url` once, now.

    A session that trusts the environment scans all of it on every request (a measurable cost
    per part of a resumable upload) and looks up ~/.netrc, whose Basic credentials would
    replace our signed Authorization header. Settings the session already has win.
    """
    if not session.trust_env:
        return
    for scheme, proxy in requests.utils.get_environ_proxies(base_url).items():
        session.proxies.setdefault(scheme, proxy)
    if session.verify is True:
        bundle = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE")
        if bundle:
            session.verify = bundle
    session.trust_env = False


@dataclass(frozen=True)
class _Request:
    method: str
    uri: str
    headers: dict[str, str]
    body: Body | None
    content_md5: str | None
    idempotent: bool
    stream: bool


# --- answer parsing --------------------------------------------------------------------------


def _check_base_url(base_url: str) -> str:
    """`scheme://host[:port]` only: a path prefix would not be part of the signed PATH."""
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"base_url must be http(s)://host[:port], got {base_url!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"base_url must not have a path or query, got {base_url!r}")
    return f"{parts.scheme}://{parts.netloc}"


def _metadata_from(headers: Mapping[str, str]) -> dict[str, str]:
    return {
        key.lower()[len(rules.META_PREFIX) :]: value
        for key, value in headers.items()
        if key.lower().startswith(rules.META_PREFIX)
    }


def _parse_file_date(value: str | None) -> datetime | None:
    """`x-svc-file-date` as UNIX seconds (what the provider sends) or an RFC 1123 date."""
    if not value:
        return None
    if value.strip().isdigit():
        return datetime.fromtimestamp(int(value), tz=UTC)
    try:
        return parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None


def _is_json(response: requests.Response) -> bool:
    return "json" in response.headers.get("Content-Type", "").lower()


def _parse_json_listing(response: requests.Response) -> tuple[list[ListItem], str | None]:
    try:
        payload: Any = response.json()
        entries = payload.get("files") or []
        items = [
            ListItem(
                name=str(entry["name"]),
                is_folder=entry.get("type") == "folder",
                size=int(entry.get("length") or 0),
                last_modified=int(entry.get("last_modified") or 0),
                content_type=None if entry.get("type") == "folder" else entry.get("type"),
            )
            for entry in entries
        ]
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise StorageProtocolError(f"malformed JSON listing: {exc}") from exc
    body_iter = payload.get("iter")
    return items, str(body_iter) if body_iter else None


def _parse_text_listing(text: str) -> list[ListItem]:
    """Lines `name\\ttype\\tsize\\tmtime`, type `N` (file) or `F` (folder)."""
    items: list[ListItem] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        columns = line.split("\t")
        if len(columns) != 4 or columns[1] not in ("N", "F"):
            raise StorageProtocolError(f"listing line {number} is malformed: {line[:80]!r}")
        name, kind, size, mtime = columns
        if not size.isdigit() or not mtime.isdigit():
            raise StorageProtocolError(f"listing line {number} has a non-numeric size or time")
        items.append(ListItem(name, kind == "F", int(size), int(mtime)))
    return items
