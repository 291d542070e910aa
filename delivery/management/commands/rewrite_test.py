"""`manage.py rewrite_test rules.json URL [-X METHOD] [-H 'Name: value'] [-b 'a=1; b=2']
[-d BODY] [--preview] [--ip ADDRESS] [--json] [--domain NAME]`.

Runs a rule set file (a JSON list of {pattern, rule, break, state, test_addresses}; the older
`debug` instead of `state` still reads) against one request with
edgerules, locally, and prints each rule's trace and the outcome. Exits 1 when the file's rules
have syntax errors, after printing them with their line and column.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from backoffice.operations.provider import ProviderNotConfigured
from console.models import Domain
from delivery import tester
from delivery.services import country_lookup, named_domain
from edgerules import lint_rule_set


class Command(BaseCommand):
    help = "Run a rewrite rule set file against a request and print the trace."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("rules", help="JSON file: a list of {pattern, rule, break, state, "
                                          "test_addresses}")
        parser.add_argument("url", help="http://host/path?query or /path?query")
        parser.add_argument("-X", "--method", default="GET")
        parser.add_argument("-H", "--header", action="append", default=[],
                            help="'Name: value' (repeatable)")
        parser.add_argument("-b", "--cookie", action="append", default=[],
                            help="'name=value; other=value' (repeatable)")
        parser.add_argument("-d", "--data", default="", help="www-form body")
        parser.add_argument("--preview", action="store_true",
                            help="send X-svc-Rewrite-Preview: true (rules in test apply)")
        parser.add_argument("--ip", default="", help="the client's address ($_IP; rules in "
                                                     "test apply to their addresses)")
        parser.add_argument("--json", action="store_true", help="print the outcome as JSON")
        parser.add_argument("--domain", default="", metavar="NAME",
                            help="host of a URL without one (default: the default domain, "
                                 "or localhost without any)")

    def handle(self, *args: Any, **options: Any) -> None:
        specs = self._load(Path(options["rules"]))
        report = lint_rule_set(specs)
        errors = {index: [d for d in found if d.severity == "error"]
                  for index, found in report.items()}
        for index, found in sorted(errors.items()):
            for diagnostic in found:
                self.stderr.write(f"rule {index + 1}: {diagnostic.field} {diagnostic}")
        request = tester.SampleRequest(
            method=options["method"], url=options["url"], headers="\n".join(options["header"]),
            cookies="\n".join(options["cookie"]), body=options["data"],
            preview=options["preview"], ip=options["ip"])
        lookup = country_lookup()
        try:
            context = tester.build_context(request,
                                           default_host=self._host(options["domain"]),
                                           country_of=lookup.country if lookup else None)
        except tester.SampleInputError as error:
            raise CommandError("\n".join(f"{p.field} line {p.line}: {p.message}"
                                         for p in error.problems)) from None
        outcome = tester.run(specs, context)
        if options["json"]:
            self.stdout.write(json.dumps(tester.outcome_dict(outcome), indent=2,
                                         ensure_ascii=False))
        else:
            self.stdout.write(tester.format_trace(outcome))
        if any(errors.values()):
            raise CommandError("the rule set has syntax errors (listed above)", returncode=1)

    def _host(self, name: str) -> str:
        try:
            return named_domain(name).name
        except Domain.DoesNotExist:
            raise CommandError(f"--domain: no domain is named {name!r}") from None
        except ProviderNotConfigured:
            return "localhost"

    def _load(self, path: Path) -> list[dict[str, Any]]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise CommandError(f"{path}: {error.strerror}") from None
        except ValueError as error:
            raise CommandError(f"{path}: not JSON: {error}") from None
        if not isinstance(data, list):
            raise CommandError(f"{path}: must hold a JSON list of rules")
        specs = []
        for number, item in enumerate(data, start=1):
            if not isinstance(item, dict) or not isinstance(item.get("rule"), str):
                raise CommandError(f"{path}: rule {number} must be an object with a "
                                   f"string \"rule\"")
            if "pattern" in item and not isinstance(item["pattern"], str | None):
                raise CommandError(f"{path}: rule {number}: \"pattern\" must be a string")
            specs.append(item)
        return specs
