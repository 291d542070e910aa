"""Query open top-up orders now, in this process (what the beat job queues for the workers)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from topup import services
from topup.models import OPEN_STATES, Order, OrderState


class Command(BaseCommand):
    help = ("Query the provider about open top-up orders and apply the answers. By default only "
            "orders whose next query is due; --all queries every open order.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--all", action="store_true", help="every open order, due or not")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["all"]:
            ids = list(Order.objects.filter(state__in=OPEN_STATES).exclude(
                state=OrderState.CREATED).values_list("pk", flat=True))
            to_submit = list(Order.objects.filter(state=OrderState.CREATED).values_list(
                "pk", flat=True))
        else:
            due = services.due_orders()
            ids, to_submit = due.to_check, due.to_submit
        for order_id in to_submit:
            services.submit_order(order_id)
        states: dict[str, int] = {}
        for order_id in ids:
            state = services.check_order(order_id)
            states[state] = states.get(state, 0) + 1
        summary = ", ".join(f"{state}: {count}" for state, count in sorted(states.items()))
        self.stdout.write(f"submitted {len(to_submit)}, queried {len(ids)}"
                          + (f" ({summary})" if summary else ""))
