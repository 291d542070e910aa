"""Template filters that put the SMS app's wording on stored codes."""

from __future__ import annotations

from django import template

from sms import texts
from sms.models import Message

register = template.Library()


@register.filter
def failure_reason(message: Message) -> str:
    """Why a refused or failed number did not get its message; empty for the others."""
    return texts.message_failure_text(message.status, message.error_code)
