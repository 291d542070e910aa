"""Upload a local file or folder to the bucket, resumably, with a progress bar."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from backoffice.operations.provider import ProviderNotConfigured
from console.models import Service
from storage import paths, rules, services
from storage.management.service_option import add_service_option, chosen_service
from storage.management.terminal import ProgressBar
from storage.models import UploadTask
from storage.texts import error_text


class Command(BaseCommand):
    help = (
        "Upload a local file or folder (recursively) to the bucket. Files above "
        "STORAGE_RESUMABLE_THRESHOLD go in 1 MiB parts; run the command again after an "
        "interruption and it resumes each file at its saved part."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_service_option(parser)
        parser.add_argument("source", help="local file or folder")
        parser.add_argument(
            "target",
            nargs="?",
            help="bucket path: the file's path, or the folder to upload a folder into "
            "(default: /<source name>)",
        )
        parser.add_argument("--ttl", type=int, help="lifetime in days (1-180)")
        parser.add_argument(
            "--meta", action="append", default=[], metavar="NAME=VALUE",
            help="metadata entry (repeatable); values in any language are URL-encoded",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        source = Path(options["source"]).expanduser()
        if not source.exists():
            raise CommandError(f"source: {source} does not exist")
        try:
            service = chosen_service(options)
            services.storage_client(service)  # refuse before any task is saved
        except ProviderNotConfigured as missing:
            raise CommandError(error_text(missing)) from None
        target = options["target"] or f"/{source.resolve().name}"
        upload_options = self._options(options["ttl"], options["meta"])
        pairs = self._pairs(source, target)
        if not pairs:
            raise CommandError(f"source: {source} holds no files")
        failures = 0
        for local, remote in pairs:
            failures += 0 if self._upload(service, local, remote, upload_options) else 1
        if failures:
            raise CommandError(f"{failures} of {len(pairs)} files failed; run again to resume")

    def _options(self, ttl: int | None, entries: list[str]) -> services.UploadOptions:
        metadata: dict[str, str] = {}
        for number, entry in enumerate(entries, start=1):
            if "=" not in entry:
                raise CommandError(f"--meta #{number}: write NAME=VALUE, got {entry!r}")
            name, value = entry.split("=", 1)
            # As on the file page: any language, URL-encoded for the user (header values are
            # printable ASCII).
            metadata[name.strip()] = rules.encode_meta_value(value.strip())
        try:
            return services.UploadOptions(metadata=metadata, ttl_days=ttl)
        except rules.RuleViolation as violation:
            raise CommandError(error_text(violation)) from None

    def _pairs(self, source: Path, target: str) -> list[tuple[Path, str]]:
        try:
            base = paths.canonical(target, allow_root=source.is_dir())
        except rules.RuleViolation as violation:
            raise CommandError(f"target: {error_text(violation)}") from None
        if source.is_file():
            return [(source, base)]
        files = sorted(path for path in source.rglob("*") if path.is_file())
        prefix = base.rstrip("/")
        return [(path, f"{prefix}/{path.relative_to(source).as_posix()}") for path in files]

    def _upload(self, service: Service, local: Path, remote: str,
                options: services.UploadOptions) -> bool:
        try:
            task = services.local_file_upload(service, local, remote, options)
        except rules.RuleViolation as violation:
            self.stderr.write(f"{local}: {error_text(violation, remote)}")
            return False
        how = "in parts" if task.resumable else "in one request"
        if task.bytes_sent:
            how += f", resuming at part {task.next_part}"
        self.stdout.write(f"{local} -> {remote} ({how})")
        bar = ProgressBar(self.stdout, task.size, local.name)
        done = services.run_upload(task.pk, on_progress=lambda t: bar.update(t.bytes_sent))
        if done is None:
            self.stderr.write(f"{local}: being uploaded by another process; skipped")
            return False
        if done.state == UploadTask.State.DONE:
            bar.finish("done")
            return True
        bar.finish(done.state)
        self.stderr.write(f"{local}: {done.error}")
        return False
