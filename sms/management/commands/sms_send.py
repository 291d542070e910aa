"""Send one template to numbers from the command line, and print each number's result."""

from __future__ import annotations

import re
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sms import services, texts
from sms.management.commands._common import template_by_number
from sms.models import CampaignSource, MessageStatus

_SEPARATORS = re.compile(r"[,;\s]+")


class Command(BaseCommand):
    help = (
        "Send a template to one or many numbers now. Every number is checked first; "
        "nothing is sent when one is bad."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--template", type=int, required=True, help="provider template number")
        parser.add_argument(
            "--mobile",
            action="append",
            required=True,
            help="a number, or several separated by commas; may be repeated",
        )
        parser.add_argument(
            "--var",
            action="append",
            default=[],
            help="the value of {$var1}, then {$var2}, ... in order; may be repeated",
        )
        parser.add_argument(
            "--wait",
            type=float,
            default=60.0,
            help="seconds to send before leaving it to the worker",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        template = template_by_number(options["template"])
        # One number per line: the values come from --var, never from the number list.
        mobiles = [number for given in options["mobile"] for number in _SEPARATORS.split(given)]
        preview = services.preview_recipients(
            template, "\n".join(number for number in mobiles if number), list(options["var"])
        )
        for line in preview.bad:
            reasons = "; ".join(texts.problem_text(problem) for problem in line.problems)
            self.stderr.write(f"{line.mobile or '(empty)'}: {reasons}")
        if preview.bad:
            bad = len(preview.bad)
            raise CommandError(f"{bad} {'number' if bad == 1 else 'numbers'} cannot be sent; "
                               "nothing was sent")
        for line in preview.suppressed:
            reasons = "; ".join(texts.problem_text(problem) for problem in line.problems)
            self.stderr.write(f"{line.mobile}: {reasons}")
        if not preview.good and preview.suppressed:
            raise CommandError("every number given is on the suppression list; nothing was sent")
        if not preview.good:
            raise CommandError("no mobile number given")
        if len(preview.good) > services.MAX_FORM_RECIPIENTS:
            raise CommandError(
                f"at most {services.MAX_FORM_RECIPIENTS} numbers; use sms_import for more"
            )
        try:
            # Checked before anything is stored: a command line can simply be run again.
            services.sms_client()
        except services.ProviderNotConfigured as error:
            raise CommandError(texts.failure_text(error)) from error
        campaign = services.send_recipients(
            template, preview.good, source=CampaignSource.COMMAND, budget_s=options["wait"]
        )
        for message in campaign.messages.order_by("id"):
            result = message.status
            if message.provider_message_id:
                result += f" (provider message {message.provider_message_id})"
            if message.error_code:
                result += f" {message.error_code}"
            units = f"{message.units} {'unit' if message.units == 1 else 'units'}"
            self.stdout.write(f"{message.mobile}\t{units}\t{result}")
        self.stdout.write(f"campaign #{campaign.pk}: {campaign.get_state_display()}")
        if campaign.state == "halted":
            raise CommandError(texts.halt_text(campaign.halt_code, campaign.halt_detail))
        if campaign.messages.filter(status=MessageStatus.QUEUED).exists():
            self.stdout.write("the rest is being sent by the worker")
