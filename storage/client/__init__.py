"""Client of the provider's object storage REST interface (spec part A, DECISIONS).

One `StorageClient` per bucket and operator. The package is split at its seams:
`signed` signs, sends and repeats every request (through `providerkit.transport`), `rest` holds
the calls on files, folders, listings and metadata, `errors` the typed errors, `answers` the
results read from answers, `bodies` the streamed request bodies. The resumable upload is
`storage.resumable`. Import from `storage.client`: these names are its public interface.
"""

from __future__ import annotations

from storage.client.answers import (
    LIST_END,
    DownloadResult,
    FileInfo,
    ListItem,
    ListPage,
    OpenDownload,
    ThemeColour,
    UploadResult,
)
from storage.client.bodies import (
    CHUNK_SIZE,
    Body,
    FileBody,
    NotifyingBody,
    Source,
    file_md5,
    file_size,
    open_source,
)
from storage.client.errors import (
    ERRORS_BY_CODE,
    RETRYABLE_ERRORS,
    AuthenticationError,
    AuthorizationRequired,
    BadContentMD5,
    BucketNotFound,
    DateOffset,
    DirectoryNotEmpty,
    FileMD5Mismatch,
    FolderExists,
    InvalidSecret,
    MultipartCompleted,
    MultipartError,
    MultipartIncomplete,
    MultipartNotFound,
    MultipartPartIdInvalid,
    MultipartUUIDInvalid,
    NotFound,
    PartIdError,
    ServerError,
    ServiceUnavailable,
    SignatureError,
    StorageConnectionError,
    StorageError,
    StorageProtocolError,
    TooManyRequests,
    UserNotFound,
    error_from_response,
)
from storage.client.rest import (
    MetadataOption,
    StorageClient,
)
from storage.client.signed import (
    CLOCK_TOLERANCE_S,
    DEFAULT_TIMEOUT,
    RetryPolicy,
    SignedClient,
)
from storage.signing import DateHeader, Scheme

__all__ = [
    "AuthenticationError",
    "AuthorizationRequired",
    "BadContentMD5",
    "Body",
    "BucketNotFound",
    "CHUNK_SIZE",
    "CLOCK_TOLERANCE_S",
    "DEFAULT_TIMEOUT",
    "DateHeader",
    "DateOffset",
    "DirectoryNotEmpty",
    "DownloadResult",
    "ERRORS_BY_CODE",
    "FileBody",
    "FileInfo",
    "FileMD5Mismatch",
    "FolderExists",
    "InvalidSecret",
    "LIST_END",
    "ListItem",
    "ListPage",
    "MetadataOption",
    "MultipartCompleted",
    "MultipartError",
    "MultipartIncomplete",
    "MultipartNotFound",
    "MultipartPartIdInvalid",
    "MultipartUUIDInvalid",
    "NotFound",
    "NotifyingBody",
    "OpenDownload",
    "PartIdError",
    "RETRYABLE_ERRORS",
    "RetryPolicy",
    "Scheme",
    "ServerError",
    "ServiceUnavailable",
    "SignatureError",
    "SignedClient",
    "Source",
    "StorageClient",
    "StorageConnectionError",
    "StorageError",
    "StorageProtocolError",
    "TooManyRequests",
    "ThemeColour",
    "UploadResult",
    "UserNotFound",
    "error_from_response",
    "file_md5",
    "file_size",
    "open_source",
]
