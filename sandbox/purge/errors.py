"""The purge API's refusals, in the storage REST API's shape (the purge endpoint is part of the
same provider REST API): JSON `{"msg", "code", "id"}`, HTTP status = code // 100000.

The 401 and 429 codes are those DECISIONS.md lists for the storage API; the 400 and 405 codes
are the sandbox's own, documented in docs/decisions.md ("Sandbox storage, media and edge").
"""

from __future__ import annotations

import uuid

from django.http import HttpRequest, HttpResponse, JsonResponse

DATE_OFFSET = 40100002
NEED_AUTHORIZATION = 40100004
SIGNATURE_ERROR = 40100005
USER_NOT_EXISTS = 40100006
BUCKET_NOT_EXISTS = 40100012
TOO_MANY_REQUESTS = 42900002
# (sandbox) codes.
BAD_PURGE_FIELD = 40000020
NOT_FOUND = 40400001
METHOD_NOT_ALLOWED = 40500001
INTERNAL_ERROR = 50000000


class PurgeError(Exception):
    def __init__(self, code: int, msg: str) -> None:
        super().__init__(f"{code} {msg}")
        self.code = code
        self.msg = msg

    def response(self) -> JsonResponse:
        return error_response(self.code, self.msg)


def error_response(code: int, msg: str) -> JsonResponse:
    request_id = uuid.uuid4().hex
    response = JsonResponse({"msg": msg, "code": code, "id": request_id}, status=code // 100000)
    response["X-Request-Id"] = request_id
    return response


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_response(NOT_FOUND, f"no such endpoint: {request.path}; purge is POST /purge/")


def server_error(request: HttpRequest) -> HttpResponse:
    return error_response(INTERNAL_ERROR, "purge internal error")
