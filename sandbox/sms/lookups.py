"""Finding a template by number, shared by the template endpoints and sending."""

from __future__ import annotations

from sandbox.sms.errors import SmsError
from sandbox.sms.models import Template

LARGEST_ID = 2**63 - 1  # beyond SQLite's integers: no such template, rather than a crash


def find_template(template_id: int) -> Template:
    template = None
    if template_id <= LARGEST_ID:
        template = Template.objects.filter(pk=template_id).first()
    if template is None:
        raise SmsError("TEMPLATE_NOT_FOUND", f"there is no template {template_id}")
    return template
