"""The console API's refusals: `{"error_code", "message", "request"}` and, for a bad field,
`"field"` naming it (docs/decisions.md, "Services, domains and the console API").

The table there gives every code; the HTTP status is the code's last three digits.
"""

from __future__ import annotations

import uuid

from django.http import HttpRequest, JsonResponse

BAD_FIELD = 10400
BAD_TOKEN = 10401
BAD_LOGIN = 10402
NOT_APPLICABLE = 10403
NOT_FOUND = 10404
CONFLICT = 10409
TOO_MANY = 10429
# The sandbox's own, for what the table does not cover (an unknown path, a wrong method, a crash).
METHOD_NOT_ALLOWED = 10405
INTERNAL_ERROR = 10500

STATUS = {BAD_FIELD: 400, BAD_TOKEN: 401, BAD_LOGIN: 401, NOT_APPLICABLE: 403, NOT_FOUND: 404,
          CONFLICT: 409, TOO_MANY: 429, METHOD_NOT_ALLOWED: 405, INTERNAL_ERROR: 500}


class ConsoleError(Exception):
    def __init__(self, code: int, message: str, field: str | None = None) -> None:
        super().__init__(f"{code} {message}")
        self.code = code
        self.message = message
        self.field = field

    def response(self) -> JsonResponse:
        return error_response(self.code, self.message, self.field)


def bad_field(field: str, message: str) -> ConsoleError:
    return ConsoleError(BAD_FIELD, f"{field}: {message}", field)


def error_response(code: int, message: str, field: str | None = None) -> JsonResponse:
    body: dict[str, object] = {"error_code": code, "message": message,
                               "request": uuid.uuid4().hex}
    if field is not None:
        body["field"] = field
    return JsonResponse(body, status=STATUS[code])


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return error_response(NOT_FOUND, f"no such endpoint: {request.method} {request.path}")


def server_error(request: HttpRequest) -> JsonResponse:
    return error_response(INTERNAL_ERROR, "sandbox internal error")
