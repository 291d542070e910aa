"""Mirror a folder tree of the bucket into the StoredFile table (what the beat job runs)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from storage import rules, services
from storage.management.service_option import add_service_option, chosen_service
from storage.models import SyncRun
from storage.services import DETAILS_PER_RUN
from storage.texts import error_text


class Command(BaseCommand):
    help = (
        "Walk a folder tree with the listing iterator and mirror it into StoredFile: new and "
        "changed entries are written, entries not seen in the completed walk are marked gone."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_service_option(parser)
        parser.add_argument("root", nargs="?", default="/", help="folder to mirror (default: /)")
        parser.add_argument(
            "--details", type=int, default=DETAILS_PER_RUN,
            help="read MD5 and metadata of at most this many new or changed files "
            f"(default {DETAILS_PER_RUN}; 0 to skip)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            run = services.sync_tree(chosen_service(options), options["root"],
                                     details_limit=max(options["details"], 0))
        except rules.RuleViolation as violation:
            raise CommandError(f"root: {error_text(violation)}") from None
        summary = (
            f"{run.root}: {run.folders} folders, {run.seen} entries seen, {run.added} added, "
            f"{run.changed} changed, {run.gone} gone, {run.details_read} details read"
        )
        if run.state != SyncRun.State.COMPLETED:
            raise CommandError(f"{summary}; failed: {run.error}")
        self.stdout.write(summary)
        if run.error:
            self.stderr.write(f"details stopped early: {run.error}")
