"""The provider's callback endpoint: POST /api/topup/callback/."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.authentication import BaseAuthentication
from rest_framework.parsers import BaseParser
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from backoffice.security.bounded_input import read_body
from backoffice.ui.outage import RETRY_AFTER_S
from topup import services


@extend_schema(exclude=True)  # the provider's endpoint, not part of the merchant API
class CallbackView(APIView):
    """Stores the raw request, verifies its sign, answers `{"info": "1"}` when both succeeded.

    No authentication class and no parser: the sign is the authentication, and the body is read
    raw so that even an unreadable one is kept; at most MAX_CALLBACK_BYTES of it are read
    (a larger one is answered 413 with its first bytes and size kept).
    """

    authentication_classes: list[type[BaseAuthentication]] = []
    permission_classes = [AllowAny]
    parser_classes: list[type[BaseParser]] = []
    renderer_classes = [JSONRenderer]
    throttle_classes: list[type[BaseThrottle]] = []

    def post(self, request: Request) -> Response:
        reply = services.receive_callback(
            body=read_body(request._request, services.MAX_CALLBACK_BYTES),
            headers=services.request_headers(request.META),
            remote_addr=request.META.get("REMOTE_ADDR") or None,
        )
        response = Response(reply.body, status=reply.status)
        if reply.status == 503:
            response["Retry-After"] = str(RETRY_AFTER_S)
        return response
