"""The delivery home page: provider connection, what the edge was last given, recent purges."""

from __future__ import annotations

from typing import Any

from backoffice.ui.dashboard import ServiceOverviewView
from delivery import services
from delivery.models import DeliverySettings, ImageVersion, PurgeRequest, RuleSet
from delivery.views.access import abilities


class DeliveryHomeView(ServiceOverviewView):
    template_name = "delivery/home.html"
    service_key = "delivery"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)  # checks delivery.access_delivery
        fingerprint = services.current_secret_fingerprint()
        context.update(
            nav="home",
            delivery_settings=DeliverySettings.current(),
            versions=ImageVersion.objects.all(),
            rule_set_count=RuleSet.objects.count(),
            last_publication=services.last_publication(),
            secret_configured=fingerprint is not None,
            secret_changed=services.secret_changed_since_publish(fingerprint),
            recent_purges=PurgeRequest.objects.select_related("requested_by")[:10],
            purged_today=services.purged_today(),
            **abilities(self.request.user),
        )
        return context
