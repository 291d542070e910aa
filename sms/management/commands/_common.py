"""Helpers shared by the SMS management commands."""

from __future__ import annotations

from django.core.management.base import CommandError

from sms.models import Template


def template_by_number(number: int) -> Template:
    """The template with this provider number (as shown on the templates page)."""
    try:
        return Template.objects.get(provider_id=number, removed_at__isnull=True)
    except Template.DoesNotExist:
        raise CommandError(
            f"no template #{number} here; run `manage.py sms_sync_templates` first"
        ) from None
