"""Record the top-up balance now."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from backoffice.operations.provider import ProviderNotConfigured
from topup import services
from topup.models import SnapshotSource
from topup.services import TopupError


class Command(BaseCommand):
    help = "Ask the provider for the top-up balance and record it."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            snapshot = services.take_snapshot(SnapshotSource.STAFF)
        except (TopupError, ProviderNotConfigured) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"balance {snapshot.balance}, frozen {snapshot.freeze}, "
                          f"available {snapshot.avail_balance}")
