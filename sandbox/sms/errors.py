"""The SMS error answers: `{error_code, message}` with the HTTP status of the spec's table.

`message` adds detail (which field, which limit) and never repeats the code's standard text.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse

HTTP_STATUS = {
    "INVALID_FILE": 400,
    "MISSING_PARAMETER": 400,
    "INVALID_CREDENTIALS": 401,
    "REQUIRE_TEMPLATE_OWNER": 403,
    "REQUIRE_SIGNATURE_OWNER": 403,
    "USER_NOT_FOUND": 404,
    "TEMPLATE_NOT_FOUND": 404,
    "NOT_FOUND": 404,
    "INSUFFICIENT_FUNDS": 409,
    "MOBILE_LIMIT": 409,
    "ILLEGAL_MOBILE": 409,
    "ILLEGAL_PARAMER": 409,  # sic: the provider spells it so
    "TEMPLATE_LIMIT": 409,
    "TEMPLATE_AUDITING": 409,
    "TEMPLATE_NOT_AUDITED": 409,
    "ILLEGAL_SIGNATURE": 409,
    "ILLEGAL_TITLE": 409,
    "TEMPLATE_FAILED": 409,
    "ILLEGAL_CONTENT_LENGTH": 409,
    "ILLEGAL_REPORT_TYPE": 409,
    "ILLEGAL_TEMPLATE_ID": 422,
    "TOO_MANY_REQUESTS": 429,  # the sandbox's calls-per-second limit (call_rate.py)
    "SMS_SYSTEM_ERROR": 500,
    "SYSTEM_ERROR": 500,
}


class SmsError(Exception):
    """A refused request; raised anywhere below a view and answered by `error_response`."""

    def __init__(self, code: str, message: str) -> None:
        if code not in HTTP_STATUS:
            raise ValueError(f"unknown SMS error code {code}")
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    @property
    def status(self) -> int:
        return HTTP_STATUS[self.code]


def error_response(code: str, message: str) -> JsonResponse:
    return JsonResponse({"error_code": code, "message": message}, status=HTTP_STATUS[code],
                        json_dumps_params={"ensure_ascii": False})


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return error_response("NOT_FOUND", f"no such endpoint: {request.method} {request.path}")


def server_error(request: HttpRequest) -> JsonResponse:
    return error_response("SYSTEM_ERROR", "the SMS sandbox failed on this request")
