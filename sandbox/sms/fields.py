"""Request bodies of the SMS endpoints (JSON or form-urlencoded) and typed field readers
that raise the spec's error codes."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, QueryDict

from sandbox.core.jsonapi import NotAJsonObject, json_object
from sandbox.sms.errors import SmsError

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


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
        return json_object(request.body)
    except NotAJsonObject as error:
        raise SmsError("ILLEGAL_PARAMER", f"the body {error}") from None


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
