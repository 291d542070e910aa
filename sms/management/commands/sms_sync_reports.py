"""Read the provider's delivery report now and move messages to their final status."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sms import services, texts
from sms.services import SmsError


class Command(BaseCommand):
    help = "Page through the provider's delivery report and update our messages (as the beat job)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days", type=int, default=7, help="poll messages submitted within this many days"
        )
        parser.add_argument(
            "--max-pages",
            type=int,
            default=services.REPORT_MAX_PAGES,
            help="report pages to read at most; a long day is continued by the next run",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["days"] < 1 or options["max_pages"] < 1:
            raise CommandError("--days and --max-pages must be at least 1")
        try:
            result = services.sync_reports(
                window=timedelta(days=options["days"]), max_pages=options["max_pages"]
            )
        except (SmsError, services.ProviderNotConfigured) as error:
            raise CommandError(texts.failure_text(error)) from error
        if result.busy:
            self.stdout.write(
                f"another report sync is running; messages still open: {result.open_left}"
            )
            return
        moved = ", ".join(f"{status}: {count}" for status, count in sorted(result.moved.items()))
        self.stdout.write(
            f"pages read: {result.pages}, records read: {result.records}; "
            f"moved {result.moved_total} ({moved or 'none'}); {result.open_left} still open"
        )
