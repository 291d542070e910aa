"""`{% load delivery_words %}`: the edge configuration's section keys said in words on staff
pages (`{{ key|section_word }}`, `{{ keys|section_words }}`), never the keys themselves."""

from __future__ import annotations

from collections.abc import Iterable

from django import template

from delivery.texts import section_word as _section_word

register = template.Library()


@register.filter
def section_word(key: str) -> str:
    return _section_word(key)


@register.filter
def section_words(keys: Iterable[str]) -> str:
    return ", ".join(_section_word(key) for key in keys)
