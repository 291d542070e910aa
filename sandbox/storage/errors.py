"""The storage protocol's error answers: JSON `{"msg", "code", "id"}`, HTTP status = code // 100000.

Codes named in DECISIONS.md are used as listed there. The sandbox's own codes, for conditions the
spec leaves without one, are marked "(sandbox)" and are documented in docs/decisions.md.
"""

from __future__ import annotations

import uuid

from django.http import HttpRequest, HttpResponse, JsonResponse

# DECISIONS.md, "Storage and media processing".
WRONG_CONTENT_MD5 = 40001001
WRONG_MULTIPART_UUID = 40001023
WRONG_PART_ID = 40001030
MULTIPART_UUID_NOT_FOUND = 40001035
MULTIPART_COMPLETED = 40001036
MULTIPART_INCOMPLETE = 40001037
FILE_MD5_MISMATCH = 40011060
PART_ID_OUT_OF_ORDER = 40011061
DATE_OFFSET = 40100002
NEED_AUTHORIZATION = 40100004
SIGNATURE_ERROR = 40100005
USER_NOT_EXISTS = 40100006
BUCKET_NOT_EXISTS = 40100012
DIRECTORY_NOT_EMPTY = 40300005
BAD_CONTENT_SECRET = 40300016
NOT_FOUND = 40400001
FOLDER_EXISTS = 40600002

# (sandbox) codes for conditions the spec and DECISIONS leave without a code.
BAD_CONTENT_LENGTH = 40000001
BAD_HEADER = 40000003
BAD_PATH = 40000004
BAD_PREPROCESSING = 40000010
NOT_AN_IMAGE = 40000011
PART_SIZE_ERROR = 40011063
RESUMABLE_FILE_LOCKED = 40300017
ROOT_NOT_DELETABLE = 40300018
METHOD_NOT_ALLOWED = 40500001
PATH_TYPE_CONFLICT = 40600001
INTERNAL_ERROR = 50000000


class StorageError(Exception):
    """A refused storage request; `headers` are added to the error answer (e.g. next part id)."""

    def __init__(self, code: int, msg: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(f"{code} {msg}")
        self.code = code
        self.msg = msg
        self.headers = dict(headers or {})

    @property
    def status(self) -> int:
        return self.code // 100000

    def response(self) -> JsonResponse:
        return error_response(self.code, self.msg, self.headers)


def request_id() -> str:
    return uuid.uuid4().hex


def error_response(code: int, msg: str, headers: dict[str, str] | None = None) -> JsonResponse:
    rid = request_id()
    response = JsonResponse({"msg": msg, "code": code, "id": rid}, status=code // 100000)
    response["X-Request-Id"] = rid
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404 of the storage port: the protocol's own not-found answer."""
    return error_response(NOT_FOUND, "file or directory not found")


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500 of the storage port: a crash still answers in the protocol's error shape."""
    return error_response(INTERNAL_ERROR, "internal error")
