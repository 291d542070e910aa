"""Control endpoints of the media emulator (control port, under /media/)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_http_methods

from sandbox.media.models import ProcessingRequest

ENDPOINTS = ("m3u8er/concat", "m3u8er/clip", "snapshot", "m3u8er/get_meta", "avmeta/get_meta")


@require_http_methods(["GET"])
def requests_log(request: HttpRequest) -> JsonResponse:
    """GET [?endpoint=<name>]: every media call since the last reset, oldest first."""
    calls = ProcessingRequest.objects.all()
    wanted = request.GET.get("endpoint")
    if wanted is not None:
        if wanted not in ENDPOINTS:
            return JsonResponse({"error": f"endpoint: must be one of {', '.join(ENDPOINTS)}",
                                 "field": "endpoint"}, status=400)
        calls = calls.filter(endpoint=wanted)
    return JsonResponse({"requests": [call.as_dict() for call in calls]})
