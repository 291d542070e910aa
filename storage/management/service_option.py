"""The `--service` option every storage command takes: which storage service it works on."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from console.models import Service
from console.services import UnknownService, service_for


def add_service_option(parser: CommandParser) -> None:
    parser.add_argument(
        "--service", metavar="NAME", default="",
        help="the storage service (bucket) to work on (default: the one of STORAGE_BUCKET, "
             "else the first)")


def chosen_service(options: dict[str, Any]) -> Service:
    """The service `--service` names, or the default one; CommandError for an unknown name.
    Commands act for the operator, so no per-service group limit applies."""
    try:
        return service_for(None, options.get("service") or None)
    except UnknownService:
        raise CommandError(
            f"--service: there is no storage service named {options['service']!r}") from None
