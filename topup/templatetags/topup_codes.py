"""`{% topup_code code info %}`: a provider code with its meaning and what to do, in place of
the bare number; `short=True` in tables (the meaning, with what to do as its title)."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from topup.services import code_help

register = template.Library()


@register.simple_tag
def topup_code(code: str, info: str = "", short: bool = False) -> SafeString:
    return render_to_string("topup/_code.html", {
        "code": code, "info": info, "help": code_help(code), "short": short})
