"""`manage.py sign_url /path/to/file.jpg [--expires-in 3600 | --until UNIX] [--upp N]`.

Prints the file's edge URL on a domain (`--domain NAME`, default: the default domain) signed
with `_upt` (the domain's secret: DELIVERY_TOKEN_SECRET for the environment's domain).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from backoffice.operations.provider import ProviderNotConfigured
from console.models import Domain
from delivery import services
from delivery.rules import LinkError


class Command(BaseCommand):
    help = "Print the edge URL of a file signed with a _upt token."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="file path as stored, e.g. /photos/a.jpg")
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--expires-in", type=int, default=3600, metavar="SECONDS",
                           help="lifetime from now (default 3600)")
        group.add_argument("--until", type=int, metavar="UNIX",
                           help="expiry as a UNIX time in seconds")
        parser.add_argument("--upp", type=int, metavar="N",
                            help="sign only the first N directory levels (0-20)")
        parser.add_argument("--suffix", default="",
                            help="version or processing suffix, e.g. '!thumb'")
        parser.add_argument("--domain", default="", metavar="NAME",
                            help="the domain (default: the default domain)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["until"] is not None:
            etime = options["until"]
        else:
            if options["expires_in"] <= 0:
                raise CommandError("--expires-in: must be a positive number of seconds")
            etime = int(time.time()) + options["expires_in"]
        try:
            domain = services.named_domain(options["domain"])
        except Domain.DoesNotExist:
            raise CommandError(f"--domain: no domain is named {options['domain']!r}") from None
        except ProviderNotConfigured as error:
            raise CommandError(str(error)) from None
        try:
            url = services.signed_link(domain, options["path"],
                                       services.Signing(etime, options["upp"]),
                                       options["suffix"])
        except LinkError as error:
            raise CommandError("\n".join(f"{p.field}: {p.message}" for p in error.problems)) \
                from None
        except ProviderNotConfigured as error:
            raise CommandError(str(error)) from None
        self.stdout.write(url)
