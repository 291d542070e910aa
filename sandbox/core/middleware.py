"""Routes each port to its service's URLs and applies injected faults."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.http import http_date

from sandbox.core import clock, lines, ports
from sandbox.core.faults import take_matching_fault
from sandbox.core.models import Fault

# Set in the WSGI environ (request.META is the environ) to make the server close the
# connection without answering; see sandbox.wsgi.
DROP_KEY = "sandbox.drop_connection"

# A service whose HTTP API is not in the package named after it. The console's records
# (sandbox.console) sit below the edge, which reads them; its API sits above the edge, whose
# settings and cache it changes, so the two are separate packages (no import cycle).
URLCONFS = {"console": "sandbox.consoleapi.urls"}


class ServiceRoutingMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            port = int(request.META.get("SERVER_PORT", "0"))
        except ValueError:
            port = 0
        service = ports.service_of_port(port)
        if service is None:
            return JsonResponse({"error": f"no sandbox service on port {port}"}, status=404)
        request.sandbox_service = service  # type: ignore[attr-defined]  # our own marker
        if service == "control":
            # Django's per-request URLconf, which django-stubs does not declare.
            request.urlconf = "sandbox.core.control_urls"  # type: ignore[attr-defined]
            return self.get_response(request)
        if service == "storage":
            lines.count(request.META.get("SERVER_NAME", ""))
        request.urlconf = URLCONFS.get(service, f"sandbox.{service}.urls")  # type: ignore[attr-defined]
        response = self.get_response(request)
        # The server's clock a client can see must be the one it is judged by: signature
        # windows read the sandbox clock, and clients correct their Date from this header.
        # (waitress keeps a Date the application set.)
        response["Date"] = http_date(clock.now())
        if request.method == "HEAD":
            without_body(response)
        return response


def without_body(response: HttpResponse | StreamingHttpResponse) -> None:
    """A HEAD answer carries the GET answer's headers and no body (RFC 9110, 9.3.2).

    waitress sends whatever body the application returns, and a keep-alive client would read
    that body as the start of its next answer.
    """
    if isinstance(response, StreamingHttpResponse):  # as response.streaming
        response.streaming_content = []  # the file is still closed with the response
        return
    length = len(response.content)
    response.content = b""
    if "Content-Length" not in response:
        response["Content-Length"] = str(length)


class FaultInjectionMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        service = getattr(request, "sandbox_service", "control")
        if service == "control":
            return self.get_response(request)
        fault = take_matching_fault(service, request.method or "GET", request.get_full_path())
        if fault is None:
            return self.get_response(request)
        if fault.when == Fault.When.BEFORE:
            early = self.apply(fault, request, None)
            if early is not None:
                return early
            return self.get_response(request)
        response = self.get_response(request)
        replaced = self.apply(fault, request, response)
        return replaced if replaced is not None else response

    @staticmethod
    def apply(fault: Fault, request: HttpRequest,
              response: HttpResponse | None) -> HttpResponse | None:
        """Carry out the fault; returns a response that replaces the real one, or None."""
        if fault.action == Fault.Action.STATUS:
            body = fault.body if fault.body is not None else {"error": "injected fault"}
            return HttpResponse(json.dumps(body), status=fault.status,
                                content_type="application/json")
        if fault.action == Fault.Action.DROP:
            request.META[DROP_KEY] = True
            return HttpResponse(status=500)  # never sent: the server drops the connection
        time.sleep(fault.delay_ms / 1000)  # delay and timeout: answer late, or too late
        return None
