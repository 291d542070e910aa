"""`{% load field_limits %}`: every input with a `maxlength` says its limit (issue 29).

The form renderer's widget templates (templates/django/forms/widgets/) write a widget's
attributes with `{% widget_attrs widget %}`, which adds the limit's note to the input's
`aria-describedby` (merged with the help text's, which Django adds), and follow the input with
`includes/field_limit.html` (`{% field_limit widget as limit %}`). Hand-written inputs include
that note themselves.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag
def field_limit(widget: dict[str, Any]) -> int | None:
    """The widget's maxlength when its note is shown (a hidden input says nothing)."""
    limit = widget.get("attrs", {}).get("maxlength")
    if limit in (None, "", False) or widget.get("type") == "hidden":
        return None
    return int(limit)


@register.simple_tag
def widget_attrs(widget: dict[str, Any]) -> SafeString:
    """Django's attrs.html, with the limit's note among the input's descriptions."""
    attrs = dict(widget.get("attrs", {}))
    if field_limit(widget) is not None and attrs.get("id"):
        described = str(attrs.get("aria-describedby") or "").split()
        attrs["aria-describedby"] = " ".join([*described, f"{attrs['id']}_limit"])
    parts = []
    for name, value in attrs.items():
        if value is False or value is None:
            continue
        parts.append(format_html(" {}", name) if value is True
                     else format_html(' {}="{}"', name, value))
    return mark_safe("".join(parts))  # each part escaped by format_html
