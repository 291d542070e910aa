"""The top-up home page: provider connection, balance, orders by state, what needs a person."""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from backoffice.ui.dashboard import ServiceOverviewView
from topup import services
from topup.models import Order, OrderState
from topup.views.access import abilities


class TopupHomeView(ServiceOverviewView):
    template_name = "topup/home.html"
    service_key = "topup"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)  # checks topup.access_topup
        counts = dict(Order.objects.values_list("state").annotate(n=Count("id"))
                      .values_list("state", "n"))
        context.update(
            snapshot=services.latest_snapshot(),
            state_counts=[(state, counts.get(state.value, 0)) for state in OrderState],
            waiting=counts.get(OrderState.MANUAL, 0),
            recent=Order.objects.select_related("product")[:10],
            paused_until=services.seek_paused_until(),
            **abilities(self.request.user),
        )
        return context
