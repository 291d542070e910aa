"""Download a file of the bucket to this machine, streamed, with a progress bar."""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from backoffice.operations.provider import ProviderNotConfigured
from storage import paths, rules, services
from storage.management.service_option import add_service_option, chosen_service
from storage.management.terminal import ProgressBar
from storage.services import StorageError
from storage.texts import error_text


class _CountingWriter:
    """Passes bytes to `file` and reports the running total to the progress bar."""

    def __init__(self, file: IO[bytes], bar: ProgressBar) -> None:
        self.file = file
        self.bar = bar
        self.written = 0

    def write(self, data: bytes) -> int:
        self.file.write(data)
        self.written += len(data)
        self.bar.update(self.written)
        return len(data)


class Command(BaseCommand):
    help = (
        "Download a file of the bucket. It is written next to the target as <name>.part and "
        "renamed when complete, so an interrupted download never leaves a truncated file."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_service_option(parser)
        parser.add_argument("path", help="bucket path of the file")
        parser.add_argument("target", nargs="?", default=".",
                            help="local file or existing folder (default: current folder)")
        parser.add_argument("--force", action="store_true", help="replace an existing file")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            remote = paths.canonical(options["path"], allow_root=False)
        except rules.RuleViolation as violation:
            raise CommandError(f"path: {error_text(violation)}") from None
        target = Path(options["target"]).expanduser()
        if target.is_dir():
            target = target / paths.name_of(remote)
        if target.exists() and not options["force"]:
            raise CommandError(f"{target} exists; use --force to replace it")
        partial = target.with_name(target.name + ".part")
        try:
            client = services.storage_client(chosen_service(options))
            info = client.head(remote)
            if info.type == "folder":
                raise CommandError(f"{remote} is a folder; use storage_list to see its files")
            bar = ProgressBar(self.stdout, info.size or 0, paths.name_of(remote))
            with open(partial, "wb") as file:
                # The client only ever calls write(), which is all a _CountingWriter has.
                writer = _CountingWriter(file, bar)
                result = client.download(remote, writer)  # type: ignore[arg-type]
        except (StorageError, ProviderNotConfigured) as failure:
            partial.unlink(missing_ok=True)
            raise CommandError(error_text(failure, remote)) from None
        except KeyboardInterrupt:
            partial.unlink(missing_ok=True)
            raise
        os.replace(partial, target)
        bar.finish(f"saved to {target} (MD5 {result.md5})")
