"""Process stored top-up callbacks again (the admin's replay action, from the shell)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from topup import services


class Command(BaseCommand):
    help = ("Replay stored top-up callbacks: the given receipt ids, or with --unprocessed every "
            "genuine callback whose processing failed. Callbacks with a bad sign are never "
            "applied.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("ids", nargs="*", type=int, help="receipt ids")
        parser.add_argument("--unprocessed", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        ids = list(options["ids"])
        if options["unprocessed"]:
            ids += services.unprocessed_receipt_ids(limit=100_000)
        if not ids:
            raise CommandError("give receipt ids or --unprocessed")
        summary = services.replay_receipts(ids)
        self.stdout.write(f"replayed {summary.replayed}, skipped {summary.skipped_invalid} "
                          "with a bad sign")
