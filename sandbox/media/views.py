"""The media-processing port: five POST endpoints under `/<service>/`, each a thin view over
its module. `<service>` is the storage bucket the sources are read from and results written
to.

Every call is authenticated first (401), then its fields are checked (400), then its sources
are looked up (404) and processed (5xx on failure). Whatever the outcome, the answer carries
`X-Request-Id` and the call is added to the request log.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.http import HttpRequest, JsonResponse

from sandbox.core import clock
from sandbox.core.json_types import JSONObject
from sandbox.media import auth, avmeta, clip, concat, fields, playlist_meta, snapshot
from sandbox.media.errors import (
    METHOD_NOT_ALLOWED,
    OK,
    PROCESSING_FAILED,
    SUCCESS_MESSAGE,
    MediaError,
    answer,
    new_request_id,
)
from sandbox.media.models import ProcessingRequest

logger = logging.getLogger(__name__)

Handler = Callable[[str, JSONObject], JSONObject]
View = Callable[[HttpRequest, str], JsonResponse]
LOGGED_BODY_CHARS = 64 * 1024


def endpoint(name: str, handler: Handler) -> View:
    def view(request: HttpRequest, service: str) -> JsonResponse:
        request_id = new_request_id()
        received_at, started = clock.now(), time.monotonic()
        try:
            status, message, extra = OK, SUCCESS_MESSAGE, run(request, service, handler)
        except MediaError as error:
            status, message, extra = error.status, error.message, {}
        except Exception:
            logger.exception("media %s failed (request %s)", name, request_id)
            status, message, extra = (PROCESSING_FAILED,
                                      "the media sandbox failed on this request", {})
        ProcessingRequest.objects.create(
            request_id=request_id, service=service, endpoint=name,
            body=request.body.decode("utf-8", "replace")[:LOGGED_BODY_CHARS],
            status_code=status, message=message, received_at=received_at,
            elapsed_ms=round((time.monotonic() - started) * 1000, 3),
        )
        return answer(status, message, request_id, extra)

    view.__name__ = name.replace("/", "_")
    return view


def run(request: HttpRequest, service: str, handler: Handler) -> JSONObject:
    if request.method != "POST":
        raise MediaError(METHOD_NOT_ALLOWED, f"method {request.method} is not allowed; "
                                             f"media processing takes POST")
    auth.authenticate(request, service)
    return handler(service, fields.body_of(request))


concat_view = endpoint("m3u8er/concat", concat.handle)
clip_view = endpoint("m3u8er/clip", clip.handle)
snapshot_view = endpoint("snapshot", snapshot.handle)
m3u8_meta_view = endpoint("m3u8er/get_meta", playlist_meta.handle)
avmeta_view = endpoint("avmeta/get_meta", avmeta.handle)
