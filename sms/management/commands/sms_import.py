"""Check an import file against a template; with --confirm, send it as a campaign, now or
--at a time (Asia/Shanghai)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sms import services, texts
from sms.management.commands._common import template_by_number

SHOWN_PROBLEMS = 50


class Command(BaseCommand):
    help = (
        "Validate a txt/csv file (mobile, then up to 4 variable columns; UTF-8 or GBK) and "
        "store it as a campaign waiting for confirmation; --confirm sends it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path)
        parser.add_argument("--template", type=int, required=True, help="provider template number")
        parser.add_argument(
            "--confirm", action="store_true", help="send it (by the worker) when the check is done"
        )
        parser.add_argument(
            "--now",
            action="store_true",
            help="with --confirm: send in this process, not the worker",
        )
        parser.add_argument(
            "--at",
            metavar="YYYY-MM-DD HH:MM",
            help="with --confirm: start at this time (Asia/Shanghai), at most 90 days ahead",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        start_at = self._start_at(options)
        template = template_by_number(options["template"])
        path: Path = options["path"]
        if not path.is_file():
            raise CommandError(f"{path}: no such file")
        try:
            campaign = services.store_import(template, path, path.name)
        except services.ImportFileError as error:
            raise CommandError(f"{path}: {error}") from error
        self.stdout.write(
            f"campaign #{campaign.pk}: {campaign.lines_read} lines read ({campaign.encoding}), "
            f"{campaign.total_numbers} numbers, {campaign.total_units} units, "
            f"{campaign.bad_lines} bad lines, {campaign.suppressed_lines} suppressed (not sent)"
        )
        for problem in campaign.problems.all()[:SHOWN_PROBLEMS]:
            reason = texts.code_text(problem.code, problem.params)
            self.stdout.write(f"  line {problem.line_number}: {reason}")
        if campaign.bad_lines > SHOWN_PROBLEMS:
            self.stdout.write("  ... (every bad line is listed on the campaign's page)")
        if not options["confirm"]:
            self.stdout.write("not sent: run again with --confirm, or confirm on the campaign page")
            return
        try:
            services.confirm_campaign(campaign, start_at=start_at)
        except (services.CampaignStateError, services.StartTimeError) as error:
            raise CommandError(str(error)) from error
        if start_at is not None:
            self.stdout.write(
                f"campaign #{campaign.pk} scheduled: it starts at {options['at'].strip()} "
                "(Asia/Shanghai)"
            )
        elif options["now"]:
            outcome = services.run_campaign(campaign.pk, budget_s=float("inf"))
            campaign.refresh_from_db()
            self.stdout.write(
                f"campaign #{campaign.pk}: {campaign.get_state_display()}, "
                f"{campaign.accepted_count} accepted, {campaign.rejected_count} rejected"
            )
            if outcome.again:
                self.stdout.write("not finished: the worker carries on")
        else:
            self.stdout.write(f"campaign #{campaign.pk} confirmed: the worker sends it")

    def _start_at(self, options: dict[str, Any]) -> datetime | None:
        """--at checked before the file is read, so a bad time stores no campaign."""
        if options["at"] is None:
            return None
        if not options["confirm"]:
            raise CommandError("--at: needs --confirm (an unconfirmed campaign is not scheduled)")
        if options["now"]:
            raise CommandError("--at: cannot be combined with --now")
        try:
            return services.parse_start_time(options["at"])
        except services.StartTimeError as error:
            raise CommandError(f"--at: {error}") from error
