"""The storage protocol's error answers: JSON `{"msg", "code", "id", "detail"}`, HTTP status =
code // 100000 (DECISIONS.md, "Storage and media processing").

Every refusal whose cause has a row in the provider's table (api/errno.md, `errno.MESSAGES`)
answers with that row's code, and `msg` is exactly that row's message; our own explanation goes
in `detail`. A cause without a row is 40000000 "storage bad request" with a `detail`. A code is
never used for another cause than its row's: the names below say which cause each one is for.
"""

from __future__ import annotations

import uuid

from django.http import HttpRequest, HttpResponse, JsonResponse

from sandbox.storage.errno import MESSAGES

# A cause without a row of its own.
BAD_REQUEST = 40000000
# Requests.
WRONG_URI = 40001000
WRONG_CONTENT_MD5 = 40001001
WRONG_CONTENT_LENGTH = 40001002
META_INVALID = 40001003
FOLDER_ARGS_INVALID = 40001004
ITER_ARGS_INVALID = 40001005
NEED_CONTENT_LENGTH = 40300026
# Resumable upload.
WRONG_MULTIPART_UUID = 40001023
WRONG_MULTIPART_LENGTH = 40001025
WRONG_MULTIPART_SIZE = 40001027
WRONG_PART_ID = 40001030
DUPLICATE_PART = 40001031
OVERSIZE_PART = 40001032
UNEXPECTED_MULTIPART_LENGTH = 40001034
MULTIPART_UUID_NOT_FOUND = 40001035
MULTIPART_COMPLETED = 40001036
MULTIPART_INCOMPLETE = 40001037
INVALID_MULTI_LENGTH = 40011052
INVALID_PART_SIZE = 40011054
INVALID_MULTIPART_STAGE = 40011055
CANCEL_UUID_NOT_FOUND = 40011058
FILE_MD5_MISMATCH = 40011060
PART_ID_OUT_OF_ORDER = 40011061
PART_ALREADY_COMPLETE = 40011062
INVALID_FILE_TTL = 40011092
# Preprocessing (x-gmkerl-*).
INVALID_THUMB_PARAM = 40011035
NOT_AN_IMAGE = 40300018
# Copy and move.
COPY_OTHER_BUCKET = 40000040
COPY_SAME_KEY = 40000041
COPY_SOURCE_WRONG = 40000042
WRONG_METADATA_DIRECTIVE = 40000043
NEED_METADATA = 40000044
# Authentication.
NEED_DATE = 40100001
DATE_OFFSET = 40100002
UNKNOWN_REALM = 40100003
NEED_AUTHORIZATION = 40100004
SIGNATURE_ERROR = 40100005
USER_NOT_EXISTS = 40100006
USER_PASSWORD_ERROR = 40100009
BUCKET_NOT_EXISTS = 40100012
INVALID_DATE = 40100016
# Files and folders.
INVALID_CHARS = 40300001
DIRECTORY_NOT_EMPTY = 40300005
NO_PERMISSION_TO_DELETE = 40300011
ORDER_ASC_OR_DESC = 40300014
NOT_A_FILE = 40300015
BAD_CONTENT_SECRET = 40300016
NOT_FOUND = 40400001
DIR_NOT_ACCEPTABLE = 40600001
FOLDER_EXISTS = 40600002
UNKNOWN_ERROR = 50300000

# The x-gmkerl-* header each code of the table names (40011001 invalid x-gmkerl-type, ...).
GMKERL_CODES: dict[str, int] = {
    message.removeprefix("invalid x-gmkerl-"): code
    for code, message in MESSAGES.items()
    if message.startswith("invalid x-gmkerl-")
}


class StorageError(Exception):
    """A refused storage request: `code` of the table, `detail` our explanation, `headers`
    added to the error answer (e.g. the next part id)."""

    def __init__(self, code: int, detail: str = "", headers: dict[str, str] | None = None) -> None:
        if code not in MESSAGES:
            raise ValueError(f"{code} is not a code of the provider's error table")
        super().__init__(f"{code} {MESSAGES[code]}: {detail}" if detail else f"{code}")
        self.code = code
        self.detail = detail
        self.headers = dict(headers or {})

    @property
    def msg(self) -> str:
        """The table's message for the code, exactly."""
        return MESSAGES[self.code]

    @property
    def explanation(self) -> str:
        """What a person reads: our detail, else the table's message."""
        return self.detail or self.msg

    @property
    def status(self) -> int:
        return self.code // 100000

    def response(self) -> JsonResponse:
        return error_response(self.code, self.detail, self.headers)


def gmkerl_error(header: str, detail: str) -> StorageError:
    """A refused `x-gmkerl-<header>`: the table's code for that header, else 40011035."""
    code = GMKERL_CODES.get(header, INVALID_THUMB_PARAM)
    return StorageError(code, f"x-gmkerl-{header}: {detail}")


def request_id() -> str:
    return uuid.uuid4().hex


def error_response(code: int, detail: str = "",
                   headers: dict[str, str] | None = None) -> JsonResponse:
    rid = request_id()
    body: dict[str, object] = {"msg": MESSAGES[code], "code": code, "id": rid}
    if detail:
        body["detail"] = detail
    response = JsonResponse(body, status=code // 100000)
    response["x-request-id"] = rid
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404 of the storage port: the protocol's own not-found answer."""
    return error_response(NOT_FOUND, "no bucket in the path: use /<bucket>/<path>")


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500 of the storage port: a crash still answers in the protocol's error shape."""
    return error_response(UNKNOWN_ERROR, "the sandbox failed on this request (see its log)")
