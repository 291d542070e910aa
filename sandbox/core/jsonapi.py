"""Small helpers for the sandbox's JSON endpoints: parsing bodies and naming bad fields.

`json_object` is the one reader of a JSON request body for every service; each service turns
its `NotAJsonObject` into its own error code (the provider's services answer differently).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal, overload

from django.http import HttpRequest, JsonResponse

from sandbox.core.json_types import JSONObject, JSONValue

# A JSON object the readers below take a field of (any mapping will do).
Fields = Mapping[str, object]


class FieldError(Exception):
    """A request field is missing or wrong; answered 400 naming the field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def response(self) -> JsonResponse:
        return JsonResponse({"error": f"{self.field}: {self.message}", "field": self.field},
                            status=400)


class NotAJsonObject(ValueError):
    """The body is not a JSON object; the message completes "the body ..."."""


def json_object(raw: bytes) -> JSONObject:
    """The JSON object in `raw` (UTF-8); NotAJsonObject when it is unreadable or not an object."""
    try:
        body: JSONValue = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise NotAJsonObject(f"is not valid JSON ({error})") from None
    if not isinstance(body, dict):
        raise NotAJsonObject("is not a JSON object")
    return body


def json_body(request: HttpRequest) -> JSONObject:
    """A control endpoint's body: empty means no fields."""
    if not request.body:
        return {}
    try:
        return json_object(request.body)
    except NotAJsonObject as error:
        raise FieldError("body", str(error)) from None


def number(body: Fields, name: str, *, required: bool = False, minimum: float | None = None,
           maximum: float | None = None, integer: bool = False, default: Any = None) -> Any:
    if name not in body or body[name] is None:
        if required:
            raise FieldError(name, "is required")
        return default
    value = body[name]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise FieldError(name, "must be a number")
    if integer and not float(value).is_integer():
        raise FieldError(name, "must be an integer")
    if minimum is not None and value < minimum:
        raise FieldError(name, f"must be at least {minimum}")
    if maximum is not None and value > maximum:
        raise FieldError(name, f"must be at most {maximum}")
    return int(value) if integer else value


@overload
def choice(body: Fields, name: str, choices: tuple[str, ...], *, required: Literal[True],
           default: str | None = None) -> str: ...
@overload
def choice(body: Fields, name: str, choices: tuple[str, ...], *, required: bool = False,
           default: str) -> str: ...
@overload
def choice(body: Fields, name: str, choices: tuple[str, ...], *, required: bool = False,
           default: None = None) -> str | None: ...
def choice(body: Fields, name: str, choices: tuple[str, ...], *, required: bool = False,
           default: str | None = None) -> str | None:
    if name not in body or body[name] is None:
        if required:
            raise FieldError(name, "is required")
        return default
    value = body[name]
    if not isinstance(value, str) or value not in choices:
        raise FieldError(name, f"must be one of {', '.join(choices)}")
    return value


def text(body: Fields, name: str, *, required: bool = False,
         default: str | None = None) -> str | None:
    if name not in body or body[name] is None:
        if required:
            raise FieldError(name, "is required")
        return default
    value = body[name]
    if not isinstance(value, str):
        raise FieldError(name, "must be a string")
    return value
