"""JSON answers for unknown paths and crashes, so no service ever answers with an HTML page."""

from django.http import HttpRequest, JsonResponse


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse({"error": f"no such endpoint: {request.method} {request.path}"},
                        status=404)


def server_error(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"error": "sandbox internal error"}, status=500)
