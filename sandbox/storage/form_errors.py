"""Refusals of the FORM API and of upload preprocessing, with the codes and exact messages of
the public error table.

api/errno.md is normative (DECISIONS.md): `msg` is that row's message word for word, and our
own explanation goes in `detail`. The table's 400000xx rows are the FORM API's own (need
policy, need save-key, decode policy error...), so the form's refusals use them; a cause
without a row is 40000000 storage bad request with a `detail`.

A `Refusal` is a StorageError (sandbox/storage/errors.py), so the REST views answer one
raised by the preprocessing they share with the form (`x-gmkerl-thumb`) like their own; its
answer adds the `detail`. A StorageError raised by a shared step of a form upload (metadata,
writing the file) is answered as it is.
"""

from __future__ import annotations

from django.http import JsonResponse

from sandbox.storage import errors
from sandbox.storage.errors import StorageError

# Code -> the message api/errno.md gives it.
MESSAGES: dict[int, str] = {
    40000000: "storage bad request",
    40000001: "need save-key",
    40000003: "need bucket name",
    40000004: "need expiration",
    40000005: "need file",
    40000006: "content md5 not match",
    40000007: "need policy",
    40000008: "need signature",
    40000009: "decode policy error",
    40000010: "data too long for ext-param",
    40000029: "save-key encoding should be utf8",
    40000036: "uri bucket must be same as param bucket",
    40000038: "no boundary defined in Content-Type",
    40001002: "wrong content-length",
    40011035: "invalid param in thumb",
    40100005: "signature error",
    40100006: "user not exists",
    40100012: "bucket not exist",
    40300006: "authorization has expired",
    40300008: "file too small",
    40300009: "file too large",
    40300010: "file type error",
    40300016: "content-secret only accept [a-zA-Z0-9]",
    40300017: "no thumb setting found for bucket",
    40300018: "not an image",
    40300019: "image width too small or too big",
    40300020: "image height too small or too big",
    40300022: "invalid image-width-range",
    40300023: "invalid image-height-range",
    40300025: "wrong content-type header",
    40300035: "content-length of policy format error",
}

BAD_REQUEST = 40000000
NEED_SAVE_KEY = 40000001
NEED_BUCKET = 40000003
NEED_EXPIRATION = 40000004
NEED_FILE = 40000005
CONTENT_MD5_MISMATCH = 40000006
NEED_POLICY = 40000007
NEED_SIGNATURE = 40000008
BAD_POLICY = 40000009
EXT_PARAM_TOO_LONG = 40000010
SAVE_KEY_NOT_UTF8 = 40000029
BUCKET_MISMATCH = 40000036
NO_BOUNDARY = 40000038
WRONG_CONTENT_LENGTH = 40001002
BAD_THUMB = 40011035
SIGNATURE_ERROR = 40100005
USER_NOT_EXISTS = 40100006
BUCKET_NOT_EXISTS = 40100012
EXPIRED = 40300006
FILE_TOO_SMALL = 40300008
FILE_TOO_LARGE = 40300009
FILE_TYPE_ERROR = 40300010
BAD_CONTENT_SECRET = 40300016
NO_THUMB_SETTING = 40300017
NOT_AN_IMAGE = 40300018
IMAGE_WIDTH = 40300019
IMAGE_HEIGHT = 40300020
BAD_WIDTH_RANGE = 40300022
BAD_HEIGHT_RANGE = 40300023
WRONG_CONTENT_TYPE = 40300025
BAD_CONTENT_LENGTH = 40300035


class Refusal(StorageError):
    """A refused request: an errno.md code (its message is the table's), and our explanation of
    this case in `detail`."""

    def __init__(self, code: int, detail: str) -> None:
        super().__init__(code, MESSAGES[code])
        self.detail = detail

    def __str__(self) -> str:
        return f"{self.code} {self.msg}: {self.detail}"

    def response(self) -> JsonResponse:
        rid = errors.request_id()
        response = JsonResponse({"msg": self.msg, "code": self.code, "id": rid,
                                 "detail": self.detail}, status=self.status)
        response["X-Request-Id"] = rid
        for name, value in self.headers.items():
            response[name] = value
        return response
