"""The plumbing every SMS endpoint shares: the raw-token check, method dispatch, request
bodies (JSON or form-urlencoded) and typed field readers that raise the spec's error codes."""

from __future__ import annotations

import hmac
import json
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict

from sandbox.core.account import current_account
from sandbox.sms.errors import SmsError, error_response

Handler = Callable[..., HttpResponse]
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def endpoint(handlers: dict[str, Handler]) -> Callable[..., HttpResponse]:
    """A view answering the given methods, each behind the token check, errors as JSON."""

    def view(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        handler = handlers.get(request.method or "")
        if handler is None:
            return error_response("NOT_FOUND", f"no such endpoint: {request.method} "
                                                f"{request.path}")
        try:
            check_token(request)
            return handler(request, **kwargs)
        except SmsError as error:
            return error_response(error.code, error.message)

    return view


def check_token(request: HttpRequest) -> None:
    """`Authorization: <token>`: the raw token, no scheme word (DECISIONS)."""
    given = request.headers.get("Authorization")
    if not given:
        raise SmsError("INVALID_CREDENTIALS", "the Authorization header is missing")
    expected = current_account().sms_token
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise SmsError("INVALID_CREDENTIALS", "the Authorization token is not this account's")


def ok(document: dict[str, Any], status: int = 200) -> JsonResponse:
    return JsonResponse(document, status=status, json_dumps_params={"ensure_ascii": False})


def body_fields(request: HttpRequest) -> dict[str, Any]:
    """The request body as a dict: form-urlencoded (or multipart) fields, otherwise JSON."""
    if request.content_type in FORM_TYPES:
        if request.content_type == "multipart/form-data":
            if request.method != "POST":
                raise SmsError("ILLEGAL_PARAMER", "multipart bodies are read on POST only")
            return request.POST.dict()
        return QueryDict(request.body, encoding="utf-8").dict()
    if not request.body:
        return {}
    try:
        body = json.loads(request.body)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SmsError("ILLEGAL_PARAMER", f"the body is not valid JSON ({error})") from None
    if not isinstance(body, dict):
        raise SmsError("ILLEGAL_PARAMER", "the body must be a JSON object")
    return body


def optional_text(fields: dict[str, Any], name: str) -> str | None:
    """A string field that may be left out; present but blank counts as empty (400)."""
    value = fields.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise SmsError("ILLEGAL_PARAMER", f"{name} must be a string")
    if not value.strip():
        raise SmsError("MISSING_PARAMETER", f"{name} is empty")
    return value


def required_text(fields: dict[str, Any], name: str) -> str:
    value = optional_text(fields, name)
    if value is None:
        raise SmsError("MISSING_PARAMETER", f"{name} is required")
    return value


def template_id_of(value: Any) -> int:
    """A template number from a path, a JSON integer or a form string of digits (else 422)."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    raise SmsError("ILLEGAL_TEMPLATE_ID", f"template id {value!r} is not an integer")
