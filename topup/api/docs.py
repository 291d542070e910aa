"""The merchant API's OpenAPI schema (drf-spectacular) and a readable page made from it.

The page is rendered on the server from the same schema document, so it works without the
Swagger UI bundle (which would be fetched from a CDN) and reads in the staff's language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.settings import patched_settings

SCHEMA_URLCONF = "topup.api_schema_urls"
SCHEMA_SETTINGS: dict[str, Any] = {
    "TITLE": "Mobile-data top-up merchant API",
    "DESCRIPTION": (
        "Place top-up orders from the merchant's other systems and follow them to their final "
        "state. Authenticate with `Authorization: Bearer <token>`: a merchant API token "
        "created by staff on the API tokens page, shown once, with scopes `orders:write` "
        "and/or `orders:read`, an expiry and a per-token rate limit (429 with Retry-After). "
        "Keys of the former scheme (`Authorization: Token <key>`) keep working until an "
        "administrator revokes them. Placing orders also needs the top-up operator's "
        "permission of the staff member the token acts for."
    ),
    "VERSION": "1.0.0",
}
METHODS = ("get", "post", "put", "patch", "delete")


def schema_document() -> dict[str, Any]:
    with patched_settings(SCHEMA_SETTINGS):
        generator = SchemaGenerator(urlconf=SCHEMA_URLCONF)
        return generator.get_schema(request=None, public=True)


@dataclass
class FieldRow:
    name: str
    type: str
    required: bool
    description: str
    choices: str = ""


@dataclass
class Operation:
    method: str
    path: str
    summary: str
    description: str
    parameters: list[FieldRow] = field(default_factory=list)
    body: list[FieldRow] = field(default_factory=list)
    responses: list[tuple[str, str, list[FieldRow]]] = field(default_factory=list)


def _resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref", "")
    if ref.startswith("#/components/schemas/"):
        return document["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    return schema


def _type_of(document: dict[str, Any], schema: dict[str, Any]) -> tuple[str, str]:
    schema = _resolve(document, schema)
    if "enum" in schema:
        return "enum", ", ".join(str(v) for v in schema["enum"] if v is not None)
    for combined in ("oneOf", "allOf", "anyOf"):
        if combined in schema:
            parts = [_type_of(document, s) for s in schema[combined]]
            return " | ".join(p[0] for p in parts), "; ".join(p[1] for p in parts if p[1])
    kind = schema.get("type", "object")
    if schema.get("format"):
        kind = f"{kind} ({schema['format']})"
    return kind, ""


def _fields(document: dict[str, Any], schema: dict[str, Any]) -> list[FieldRow]:
    schema = _resolve(document, schema)
    required = set(schema.get("required", []))
    rows = []
    for name, prop in schema.get("properties", {}).items():
        kind, choices = _type_of(document, prop)
        description = prop.get("description") or _resolve(document, prop).get("description", "")
        rows.append(FieldRow(name, kind, name in required, description, choices))
    return rows


def operations(document: dict[str, Any]) -> list[Operation]:
    found = []
    for path, item in document.get("paths", {}).items():
        for method in METHODS:
            spec = item.get(method)
            if spec is None:
                continue
            op = Operation(method.upper(), path, spec.get("summary", ""),
                           spec.get("description", ""))
            for parameter in spec.get("parameters", []):
                kind, choices = _type_of(document, parameter.get("schema", {}))
                op.parameters.append(FieldRow(
                    f"{parameter['name']} ({parameter['in']})", kind,
                    parameter.get("required", False), parameter.get("description", ""), choices))
            content = spec.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                op.body = _fields(document, content["application/json"]["schema"])
            for code, response in spec.get("responses", {}).items():
                schema = response.get("content", {}).get("application/json", {}).get("schema")
                op.responses.append((code, response.get("description", ""),
                                     _fields(document, schema) if schema else []))
            found.append(op)
    return found


def api_docs(request: HttpRequest) -> HttpResponse:
    if not request.user.has_perm("topup.access_topup"):
        raise PermissionDenied
    document = schema_document()
    return render(request, "topup/api_docs.html", {
        "document": document, "operations": operations(document),
    })
