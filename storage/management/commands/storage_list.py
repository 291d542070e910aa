"""List a folder of the bucket (page by page through x-list-iter, so any size works)."""

from __future__ import annotations

import json
from collections import deque
from datetime import UTC, datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from backoffice.operations.provider import ProviderNotConfigured
from storage import paths, rules, services
from storage.management.service_option import add_service_option, chosen_service
from storage.services import ListItem, StorageClient, StorageError
from storage.texts import error_text


class Command(BaseCommand):
    help = "List a folder of the bucket: type, size, last modified (UTC) and path."

    def add_arguments(self, parser: CommandParser) -> None:
        add_service_option(parser)
        parser.add_argument("folder", nargs="?", default="/", help="bucket folder (default: /)")
        parser.add_argument("--order", choices=rules.LIST_ORDERS, default="asc")
        parser.add_argument("--page-size", type=int, default=1000,
                            help=f"entries per listing call (1-{rules.MAX_LIST_LIMIT})")
        parser.add_argument("-r", "--recursive", action="store_true", help="walk sub-folders")
        parser.add_argument("--json", action="store_true", help="one JSON object per line")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            root = paths.canonical(options["folder"])
            rules.require(rules.check_list_options(options["page_size"], options["order"]))
            client = services.storage_client(chosen_service(options))
            count = self._walk(client, root, options)
        except (StorageError, ProviderNotConfigured, rules.RuleViolation) as failure:
            raise CommandError(error_text(failure, options["folder"])) from None
        if not options["json"]:
            self.stdout.write(f"{count} entries")

    def _walk(self, client: StorageClient, root: str, options: dict[str, Any]) -> int:
        folders = deque([root])
        count = 0
        while folders:
            folder = folders.popleft()
            base = folder.rstrip("/")
            for item in client.iter_list(folder, limit=options["page_size"],
                                         order=options["order"]):
                path = f"{base}/{item.name}"
                count += 1
                self._print(path, item, options["json"])
                if item.is_folder and options["recursive"]:
                    folders.append(path)
        return count

    def _print(self, path: str, item: ListItem, as_json: bool) -> None:
        modified = datetime.fromtimestamp(item.last_modified, tz=UTC) if item.last_modified \
            else None
        if as_json:
            self.stdout.write(json.dumps({
                "path": path, "type": "folder" if item.is_folder else "file",
                "size": item.size, "last_modified": item.last_modified,
                "content_type": item.content_type,
            }, ensure_ascii=False))
            return
        kind = "F" if item.is_folder else "N"
        when = modified.strftime("%Y-%m-%d %H:%M:%S") if modified else "-" * 19
        self.stdout.write(f"{kind} {item.size:>14} {when} {path}{'/' if item.is_folder else ''}")
