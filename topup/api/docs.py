"""The merchant API's OpenAPI schema (drf-spectacular) and a readable page made from it.

The page is rendered on the server from the same schema document, so it works without the
Swagger UI bundle (which would be fetched from a CDN) and reads in the staff's language: the
schema's texts are translated strings, and the guide (introduction, then for each call a
copyable curl example and its answer) is Markdown written per language in `guide/<locale>.md`
(`guide/en.md` when the reader's language has none). Each `## METHOD /path` section of the
guide goes with the schema operation of that method and path.

Markdown is rendered by markdown-it-py with raw HTML off: whatever the guide or a schema
text holds is escaped, never passed through as markup.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, to_locale
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.settings import patched_settings
from markdown_it import MarkdownIt

from backoffice.annotations import StaffRequest

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
GUIDE_DIR = Path(__file__).resolve().parent / "guide"
BASE_URL_MARK = "{{BASE_URL}}"  # in the guide's examples: the address this page was read at

# CommonMark with tables; raw HTML is escaped (html False), links are only those of the text.
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


def markdown_html(text: str) -> SafeString:
    """Markdown as HTML; safe because markdown-it escapes every raw HTML of the source."""
    html: str = _MARKDOWN.render(text)
    return mark_safe(html)  # escaped by markdown-it (html off)


def markdown_inline(text: str) -> SafeString:
    """One line of Markdown (a schema description) as inline HTML, escaped like markdown_html."""
    html: str = _MARKDOWN.renderInline(text)
    return mark_safe(html)  # escaped by markdown-it


@dataclass(frozen=True)
class Guide:
    intro: str  # Markdown before the first `## ` heading
    sections: dict[str, str]  # "POST /api/topup/orders/" -> that section's Markdown


@lru_cache(maxsize=8)
def _guide_text(locale: str) -> str:
    path = GUIDE_DIR / f"{locale}.md"
    if not path.is_file():
        path = GUIDE_DIR / "en.md"
    return path.read_text(encoding="utf-8")


def guide(locale: str, base_url: str) -> Guide:
    """The guide in `locale` (English when there is none), cut at its `## ` headings."""
    text = _guide_text(locale).replace(BASE_URL_MARK, base_url)
    intro, heading = "", ""
    sections: dict[str, str] = {}
    lines: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("## "):
            if heading:
                sections[heading] = "".join(lines)
            else:
                intro = "".join(lines)
            heading, lines = line[3:].strip(), []
        else:
            lines.append(line)
    if heading:
        sections[heading] = "".join(lines)
    else:
        intro = "".join(lines)
    return Guide(intro, sections)


def schema_document() -> dict[str, Any]:
    with patched_settings(SCHEMA_SETTINGS):
        generator = SchemaGenerator(urlconf=SCHEMA_URLCONF)
        document: dict[str, Any] = generator.get_schema(request=None, public=True)
        return document


@dataclass
class FieldRow:
    name: str
    type: str
    required: bool
    description: SafeString
    choices: str = ""


@dataclass
class Operation:
    method: str
    path: str
    summary: str
    description: SafeString
    parameters: list[FieldRow] = field(default_factory=list)
    body: list[FieldRow] = field(default_factory=list)
    responses: list[tuple[str, SafeString, list[FieldRow]]] = field(default_factory=list)
    guide: SafeString = field(default_factory=lambda: mark_safe(""))  # empty

    @property
    def key(self) -> str:
        return f"{self.method} {self.path}"


def _resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref", "")
    if ref.startswith("#/components/schemas/"):
        resolved: dict[str, Any] = document["components"]["schemas"][ref.rsplit("/", 1)[-1]]
        return resolved
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
        rows.append(FieldRow(name, kind, name in required, markdown_inline(str(description)),
                             choices))
    return rows


def operations(document: dict[str, Any]) -> list[Operation]:
    found = []
    for path, item in document.get("paths", {}).items():
        for method in METHODS:
            spec = item.get(method)
            if spec is None:
                continue
            op = Operation(method.upper(), path, spec.get("summary", ""),
                           markdown_html(spec.get("description", "")))
            for parameter in spec.get("parameters", []):
                kind, choices = _type_of(document, parameter.get("schema", {}))
                op.parameters.append(FieldRow(
                    f"{parameter['name']} ({parameter['in']})", kind,
                    parameter.get("required", False),
                    markdown_inline(str(parameter.get("description", ""))), choices))
            content = spec.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                op.body = _fields(document, content["application/json"]["schema"])
            for code, response in spec.get("responses", {}).items():
                schema = response.get("content", {}).get("application/json", {}).get("schema")
                op.responses.append((code, markdown_inline(str(response.get("description", ""))),
                                     _fields(document, schema) if schema else []))
            found.append(op)
    return found


def api_docs(request: StaffRequest) -> HttpResponse:
    if not request.user.has_perm("topup.access_topup"):
        raise PermissionDenied
    document = schema_document()
    found = operations(document)
    # The address staff read this page at (a host Django accepted): the examples use it.
    written = guide(to_locale(get_language() or "en"),
                    request.build_absolute_uri("/").rstrip("/"))
    for op in found:
        op.guide = markdown_html(written.sections.get(op.key, ""))
    extra = [markdown_html(f"## {heading}\n{body}") for heading, body in written.sections.items()
             if heading not in {op.key for op in found}]
    return render(request, "topup/api_docs.html", {
        "document": document, "operations": found, "intro": markdown_html(written.intro),
        "extra_sections": extra,
    })
