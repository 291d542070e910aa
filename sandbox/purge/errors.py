"""The purge API's refusals, in the storage REST API's shape (the purge endpoint is part of the
same provider REST API): JSON `{"msg", "code", "id"}` (and `detail` when we have more to say),
HTTP status = code // 100000.

api/purge.md is normative (DECISIONS.md, purge): its 401 answers carry the page's own hint
texts, kept here word for word in `msg` (`Need Date Header`, `Sign error`, ...), with our
explanation in `detail`; more than 600 URLs a minute is 406. The page gives no codes: the 401
codes are errno.md's rows for the same causes, the 406 code and the 400 and 405 codes are the
sandbox's own, documented in docs/decisions.md ("Sandbox storage, media and edge").
"""

from __future__ import annotations

import uuid

from django.http import HttpRequest, HttpResponse, JsonResponse

NEED_DATE = 40100001
DATE_OFFSET = 40100002
NEED_AUTHORIZATION = 40100004
SIGNATURE_ERROR = 40100005
USER_NOT_EXISTS = 40100006
BUCKET_NOT_EXISTS = 40100012
# (sandbox) codes.
TOO_MANY_URLS = 40600000
BAD_PURGE_FIELD = 40000020
NOT_FOUND = 40400001
METHOD_NOT_ALLOWED = 40500001
INTERNAL_ERROR = 50000000


# api/purge.md's hint texts ("提示信息"), exactly as the page writes them.
MESSAGES = {
    NEED_AUTHORIZATION: "Need Authorization Header",
    NEED_DATE: "Need Date Header",
    USER_NOT_EXISTS: "User is not exists",
    BUCKET_NOT_EXISTS: "Bucket is not exists",
    DATE_OFFSET: "Date offset error",
    SIGNATURE_ERROR: "Sign error",
    # The page describes the 406 without a hint text; ours says the same in its words.
    TOO_MANY_URLS: "More than 600 URLs a minute",
}


class PurgeError(Exception):
    """A refusal: `msg` is the page's text for the code when it has one, `detail` ours."""

    def __init__(self, code: int, msg: str | None = None, *, detail: str = "") -> None:
        self.code = code
        self.msg = msg or MESSAGES[code]
        self.detail = detail
        super().__init__(f"{code} {self.msg}" + (f": {detail}" if detail else ""))

    def response(self) -> JsonResponse:
        return error_response(self.code, self.msg, self.detail)


def error_response(code: int, msg: str, detail: str = "") -> JsonResponse:
    request_id = uuid.uuid4().hex
    body: dict[str, object] = {"msg": msg, "code": code, "id": request_id}
    if detail:
        body["detail"] = detail
    response = JsonResponse(body, status=code // 100000)
    response["X-Request-Id"] = request_id
    return response


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_response(NOT_FOUND, f"no such endpoint: {request.path}; purge is POST /purge/")


def server_error(request: HttpRequest) -> HttpResponse:
    return error_response(INTERNAL_ERROR, "purge internal error")
