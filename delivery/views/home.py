"""The delivery home page: provider connection, what the edge was last given, recent purges."""

from __future__ import annotations

from typing import Any, cast

from backoffice.annotations import StaffRequest
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.ui.dashboard import ServiceOverviewView
from delivery import services
from delivery.models import DeliverySettings, ImageVersion, RuleSet
from delivery.views.access import abilities
from delivery.views.domain import page


class DeliveryHomeView(ServiceOverviewView):
    template_name = "delivery/home.html"
    service_key = "delivery"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)  # checks delivery.access_delivery
        request = cast(StaffRequest, self.request)  # the overview's check let only staff in
        try:
            domain = services.page_domain(request.user)
        except ProviderNotConfigured as error:
            context.update(nav="home", no_domain=str(error), **abilities(self.request.user))
            return context
        fingerprint = services.current_secret_fingerprint(domain)
        row = DeliverySettings.for_domain(domain)
        context.update(
            nav="home",
            delivery_settings=row,
            certificate_days=(services.days_left(row.https_certificate)
                              if row.https_certificate is not None else None),
            versions=ImageVersion.objects.filter(domain=domain),
            rule_set_count=RuleSet.objects.filter(domain=domain).count(),
            last_publication=services.last_publication(domain),
            secret_configured=fingerprint is not None,
            secret_changed=services.secret_changed_since_publish(domain, fingerprint),
            recent_purges=services.purges_of(domain).select_related("requested_by")[:10],
            purged_today=services.purged_today(domain),
            **page(request, domain),
            **abilities(self.request.user),
        )
        return context
