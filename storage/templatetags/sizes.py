"""`{{ value|size }}` and `{{ value|byte_count }}`: the one size format of every page (see
`storage.texts.size_text`), for templates of any app."""

from __future__ import annotations

from typing import Literal

from django import template

from storage import services

register = template.Library()


@register.filter
def size(value: float | Literal[""] | None) -> str:
    """`512 bytes`, `1.5 KiB`, `12.0 MiB`; empty for a missing size."""
    if value is None or value == "":
        return ""
    return services.size_text(value)


@register.filter
def byte_count(value: float | Literal[""] | None) -> str:
    """The exact count: `12,345 bytes`."""
    if value is None or value == "":
        return ""
    return services.bytes_text(value)
