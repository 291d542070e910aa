"""CORS on the storage port, so that a page on another origin can post the FORM API and send
signed REST requests (with `X-Date`, which a browser may set where it may not set `Date`).

- A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) from an allowed
  origin is answered 204 with the methods of the API, the headers the browser asked to send,
  and a max-age of a day; from another origin, 400 with 40000000 and a `detail` naming the
  origin (errno.md has no row for it).
- Every other answer to an allowed origin carries `Access-Control-Allow-Origin` and exposes
  the provider's headers: a fixed list of the API's `x-svc-*` answer headers, plus every
  header of this answer (its `x-svc-meta-*` included), which a list cannot name in advance.
- Allowed origins: `SANDBOX_STORAGE_CORS_ORIGINS` (comma-separated origins, or `*`, the
  default: any), replaced at run time through the control API (`/storage/cors`); a reset
  brings back the setting's value. With `*` the answer says `*`; with a list it names the
  request's origin and varies by `Origin`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase

from sandbox.storage import form_errors
from sandbox.storage.errors import StorageError

ANY = "*"
METHODS = "GET, HEAD, PUT, POST, DELETE, PATCH, OPTIONS"
EXPOSED = (
    "x-svc-list-iter", "x-svc-file-type", "x-svc-file-size", "x-svc-file-date",
    "x-svc-multi-uuid", "x-svc-next-part-id", "x-svc-multi-type", "x-svc-multi-length",
    "x-svc-width", "x-svc-height", "x-svc-frames", "Content-Md5", "Content-Length", "ETag",
    "Date", "X-Request-Id",
)
MAX_AGE_S = 86_400

_lock = threading.Lock()
_origins: tuple[str, ...] | None = None  # None: the setting's value


def configured() -> tuple[str, ...]:
    raw = getattr(settings, "SANDBOX_STORAGE_CORS_ORIGINS", ANY)
    return parse(raw)


def parse(raw: str) -> tuple[str, ...]:
    origins = tuple(item.strip().rstrip("/") for item in raw.split(",") if item.strip())
    return origins or (ANY,)


def allowed_origins() -> tuple[str, ...]:
    with _lock:
        return _origins if _origins is not None else configured()


def set_allowed_origins(origins: tuple[str, ...] | None) -> None:
    global _origins
    with _lock:
        _origins = origins


def forget() -> None:
    set_allowed_origins(None)


def allows(origin: str) -> bool:
    origins = allowed_origins()
    return ANY in origins or origin.rstrip("/") in origins


def allowing(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """The storage port's view with CORS around it."""

    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        origin = request.headers.get("Origin", "")
        if request.method == "OPTIONS" and origin and \
                "Access-Control-Request-Method" in request.headers:
            return preflight(request, origin)
        response = view(request, *args, **kwargs)
        if origin and allows(origin):
            decorate(response, origin)
        return response

    return wrapped


class FaultAnswerCors:
    """Middleware around the fault injection: an injected answer on the storage port (a
    status, a late answer) carries the same CORS headers as the port's own answers, so that a
    page sees the injected refusal rather than a blocked request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        origin = request.headers.get("Origin", "")
        if getattr(request, "sandbox_service", "") == "storage" and origin and \
                "Access-Control-Allow-Origin" not in response and allows(origin):
            decorate(response, origin)
        return response


def preflight(request: HttpRequest, origin: str) -> HttpResponseBase:
    if not allows(origin):
        return StorageError(form_errors.BAD_REQUEST,
                       f"origin {origin} is not allowed by the sandbox's CORS setting "
                       f"(SANDBOX_STORAGE_CORS_ORIGINS, /storage/cors)").response()
    response = HttpResponse(status=204)
    del response["Content-Type"]
    response["Access-Control-Allow-Methods"] = METHODS
    asked = request.headers.get("Access-Control-Request-Headers", "").strip()
    if asked:
        response["Access-Control-Allow-Headers"] = asked
    response["Access-Control-Max-Age"] = str(MAX_AGE_S)
    allow_origin(response, origin)
    response["Vary"] = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"
    return response


def decorate(response: HttpResponseBase, origin: str) -> None:
    allow_origin(response, origin)
    own = [name for name, _ in response.items() if name.lower().startswith("x-svc-")]
    names = list(dict.fromkeys([*EXPOSED, *own]))
    response["Access-Control-Expose-Headers"] = ", ".join(names)


def allow_origin(response: HttpResponseBase, origin: str) -> None:
    if ANY in allowed_origins():
        response["Access-Control-Allow-Origin"] = ANY
    else:
        response["Access-Control-Allow-Origin"] = origin
        vary = response.get("Vary")
        response["Vary"] = f"{vary}, Origin" if vary and "Origin" not in vary else "Origin"
