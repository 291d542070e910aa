"""Copy the provider's templates (statuses included) and the quota figures."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from sms import services, texts
from sms.services import SmsError


class Command(BaseCommand):
    help = "Refresh templates and quota from the provider (as the beat job)."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            result = services.sync_templates_and_quota()
        except (SmsError, services.ProviderNotConfigured) as error:
            raise CommandError(texts.failure_text(error)) from error
        self.stdout.write(
            f"templates: {result.created} new, {result.updated} updated, {result.removed} removed"
        )
        if result.quota is not None:
            self.stdout.write(f"quota: general {result.quota.general}, vip {result.quota.vip}")
