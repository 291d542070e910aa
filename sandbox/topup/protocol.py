"""The wire format shared by the four interfaces: JSON in, JSON out, errors as a `code`.

Every answer of the protocol is HTTP 200 with the outcome in `code`; an error is raised as
TopupError anywhere below a view and turned into the interface's answer shape by `endpoint`.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from sandbox.core.json_types import JSONObject
from sandbox.core.jsonapi import NotAJsonObject, json_object
from sandbox.topup import codes, config

Body = JSONObject
Handler = Callable[[HttpRequest, Body], HttpResponse]


class TopupError(Exception):
    """A request the service refuses: answered with `code` and an `info` saying why."""

    def __init__(self, code: str, info: str) -> None:
        super().__init__(f"{code} {info}")
        self.code = code
        self.info = info


def answer(fields: JSONObject) -> JsonResponse:
    return JsonResponse(fields, json_dumps_params={"ensure_ascii": False})


def endpoint(echo: tuple[str, ...] = (), blanks: dict[str, str] | None = None
             ) -> Callable[[Handler], Callable[[HttpRequest], HttpResponse]]:
    """Wrap an interface: POST only, whitelist, JSON body, and its error shape.

    An error answer carries `code`, the request fields named in `echo` (e.g. custno), the
    interface's other answer fields as `blanks`, and `info`.
    """

    def decorate(handler: Handler) -> Callable[[HttpRequest], HttpResponse]:
        @csrf_exempt
        @wraps(handler)
        def view(request: HttpRequest) -> HttpResponse:
            body: Body = {}
            try:
                if request.method != "POST":
                    return JsonResponse({"code": codes.PARAMETER_ABNORMAL,
                                         "info": "every top-up interface is POST"}, status=405)
                check_client_ip(request)
                body = read_body(request)
                return handler(request, body)
            except TopupError as error:
                shape: JSONObject = {"code": error.code}
                for name in echo:
                    shape[name] = body[name] if isinstance(body.get(name), str) else ""
                shape.update(blanks or {})
                shape["info"] = error.info
                return answer(shape)

        return view

    return decorate


def check_client_ip(request: HttpRequest) -> None:
    address = request.META.get("REMOTE_ADDR", "")
    try:
        client = ipaddress.ip_address(address)
    except ValueError:
        raise TopupError(codes.IP_NOT_WHITELISTED, f"{address!r} is not an IP address") from None
    if client not in {ipaddress.ip_address(entry) for entry in config.settings().whitelist}:
        raise TopupError(codes.IP_NOT_WHITELISTED, f"IP {client} is not on the whitelist")


def read_body(request: HttpRequest) -> Body:
    if request.content_type != "application/json":
        raise TopupError(codes.PARAMETER_ABNORMAL,
                         f"Content-Type must be application/json, not {request.content_type!r}")
    try:
        return json_object(request.body)
    except NotAJsonObject as error:
        raise TopupError(codes.PARAMETER_ABNORMAL, f"body {error}") from None


def required_text(body: Body, name: str) -> str:
    value = body.get(name)
    if value is None or value == "":
        raise TopupError(codes.PARAMETER_ABNORMAL, f"{name}: is required")
    if not isinstance(value, str):
        raise TopupError(codes.PARAMETER_ABNORMAL, f"{name}: must be a string")
    return value


def optional_text(body: Body, name: str) -> str | None:
    """None when absent or null; an empty string is a value (and usually a malformed one)."""
    value = body.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise TopupError(codes.PARAMETER_ABNORMAL, f"{name}: must be a string")
    return value


def optional_flag(body: Body, name: str, allowed: tuple[int, ...], default: int) -> int:
    """An optional integer field with a few meaningful values (prodtime, prodstandard)."""
    value = body.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise TopupError(codes.PARAMETER_ABNORMAL, f"{name}: must be an integer")
    if value not in allowed:
        raise TopupError(codes.PARAMETER_ABNORMAL,
                         f"{name}: must be one of {', '.join(map(str, allowed))}")
    return value
