"""Make (or remake) the daily top-up reconciliation report."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from topup import services


class Command(BaseCommand):
    help = "Make the top-up reconciliation report of a day (default: yesterday)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", help="YYYY-MM-DD, in the back-office's time zone")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["day"]:
            try:
                day = date.fromisoformat(options["day"])
            except ValueError:
                raise CommandError(f"--day: {options['day']!r} is not YYYY-MM-DD") from None
        else:
            day = timezone.localdate() - timedelta(days=1)
        if day > timezone.localdate():
            raise CommandError(f"--day: {day} has not begun yet")
        report = services.build_report(day)
        self.stdout.write(f"{report.day}: {report.order_count} orders, "
                          f"{report.discrepancies.count()} discrepancies")
        for item in report.discrepancies.select_related("order"):
            order = item.order.custno if item.order else "-"
            self.stdout.write(f"  {item.kind:15} {order:30} {item.ours} | {item.theirs} | "
                              f"{item.detail}")
