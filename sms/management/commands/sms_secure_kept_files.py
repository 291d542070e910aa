"""Make files kept before kept files were private (issue 27) private now, as the beat job."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sms import services
from storage.services import StorageError


class Command(BaseCommand):
    help = ("Copy SMS import files kept before this release to the private form (random name, "
            "content secret) and delete the old copies; safe to run again.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", type=int, default=100,
                            help="files of each kind per round (default 100)")

    def handle(self, *args: Any, **options: Any) -> None:
        total = 0
        try:
            while copied := services.secure_kept_files(options["batch"]):
                total += copied
        except (StorageError, services.ProviderNotConfigured) as error:
            raise CommandError(f"stopped after {total} files: {error}") from error
        self.stdout.write(f"{total} kept files made private")
