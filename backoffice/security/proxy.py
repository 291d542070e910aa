"""The client's address behind the proxy: nginx puts it in `X-Real-IP`; it is believed only
when the request comes from one of TRUSTED_PROXY_IPS (anyone else could write the header)."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class RealClientAddressMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        trusted = settings.TRUSTED_PROXY_IPS
        peer = request.META.get("REMOTE_ADDR", "")
        real = request.META.get("HTTP_X_REAL_IP", "").strip()
        if trusted and real and peer in trusted:
            try:
                request.META["REMOTE_ADDR"] = str(ipaddress.ip_address(real))
            except ValueError:
                pass  # a proxy that sends garbage: keep the peer's address
        return self.get_response(request)
