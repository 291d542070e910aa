"""The media-processing answers: JSON `{status_code, message, ...}` with the same HTTP status.

The spec's status codes: 200 success, 400 request parameter error, 401 authentication (the spec
words it "request parameter error" too), 404 M3U8 or video does not exist, 5xx server-side
error. Every answer, success or not, carries `X-Request-Id`, so that a failed call can be found
in the request log of the control API as easily as a good one.
"""

from __future__ import annotations

import uuid

from django.http import HttpRequest, JsonResponse

from sandbox.core.json_types import JSONObject

OK = 200
BAD_REQUEST = 400
UNAUTHORIZED = 401
NOT_FOUND = 404
METHOD_NOT_ALLOWED = 405
PROCESSING_FAILED = 500

# cloud/sync_video.md: every example answer of a success is `{"status_code": 200, "message": "ok"}`.
SUCCESS_MESSAGE = "ok"


class MediaError(Exception):
    """A refused or failed request, answered with `status` in the body and the HTTP line."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status} {message}")
        self.status = status
        self.message = message


def bad(field: str, message: str) -> MediaError:
    """A 400 whose message starts with the field it is about, e.g. `point: must be HH:MM:SS`."""
    return MediaError(BAD_REQUEST, f"{field}: {message}")


def missing(field: str, message: str) -> MediaError:
    return MediaError(NOT_FOUND, f"{field}: {message}")


def failed(message: str) -> MediaError:
    return MediaError(PROCESSING_FAILED, message)


def new_request_id() -> str:
    return uuid.uuid4().hex


def answer(status: int, message: str, request_id: str,
           extra: JSONObject | None = None) -> JsonResponse:
    body = {"status_code": status, "message": message, **(extra or {})}
    response = JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})
    response["X-Request-Id"] = request_id
    return response


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """handler404 of the media port: unknown endpoints answer in the protocol's own shape."""
    return answer(NOT_FOUND, f"no such endpoint: {request.method} {request.path}",
                  new_request_id())


def server_error(request: HttpRequest) -> JsonResponse:
    return answer(PROCESSING_FAILED, "the media sandbox failed on this request",
                  new_request_id())
