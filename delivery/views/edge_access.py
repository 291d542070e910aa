"""The Access page: region restriction, origin authentication and the external-links switch,
three panels of a domain, each with its own form. Saved locally; the edge gets them on the
next publish (sections region, origin_auth, external_links).

Everyone with the delivery pages reads it; saving, and "try it" (which sends a request to the
address typed), need the permission to change the delivery settings. Switching external links
off is confirmed first, naming the domain (every request of it will be answered 405).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from backoffice.annotations import StaffRequest
from backoffice.security.access import check_permissions
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from console.models import Domain
from delivery import services
from delivery.forms.access_panels import (
    AuthTryForm,
    ExternalLinksForm,
    OriginAuthForm,
    RegionForm,
)
from delivery.models import DeliverySettings
from delivery.views.access import CHANGE_DELIVERY_SETTINGS, abilities, needs
from delivery.views.domain import page, with_domain

PANELS = {"region": RegionForm, "origin_auth": OriginAuthForm,
          "external_links": ExternalLinksForm}
TRY = "try_auth"


@needs()
@with_domain
def access_page(request: StaffRequest, domain: Domain) -> HttpResponse:
    bound: dict[str, forms.ModelForm[DeliverySettings]] = {}
    tried: services.AuthTry | None = None
    try_form = AuthTryForm()
    if request.method == "POST":
        check_permissions(request, CHANGE_DELIVERY_SETTINGS)
        panel = request.POST.get("panel", "")
        action = request.POST.get("action", "")
        if panel in PANELS:
            form = PANELS[panel](request.POST, instance=DeliverySettings.for_domain(domain))
            bound[panel] = form
            if panel == "origin_auth" and action == TRY:
                try_form = AuthTryForm(request.POST)
                tried = _try(form, try_form, domain)
            elif form.is_valid():
                if _turns_links_off(panel, form, domain) and not confirmed(request):
                    return confirmation_page(request, _links_off_question(domain))
                services.save_delivery_settings(form.save(commit=False), [], [], request.user)
                messages.success(request, _("Saved. Publish to put it on the edge."))
                return redirect("delivery:access")
            else:
                messages.error(request, _("Nothing was saved: correct the marked fields."))
    forms_shown = {name: bound.get(name) or form_class(instance=DeliverySettings.for_domain(
        domain)) for name, form_class in PANELS.items()}
    may_change = request.user.has_perm(CHANGE_DELIVERY_SETTINGS)
    if not may_change:
        for form in [*forms_shown.values(), try_form]:
            for field in form.fields.values():
                field.disabled = True
    return render(request, "delivery/access.html", {
        "nav": "access", "region_form": forms_shown["region"],
        "auth_form": forms_shown["origin_auth"], "links_form": forms_shown["external_links"],
        "try_form": try_form, "tried": tried, "may_change": may_change,
        "links_on": DeliverySettings.for_domain(domain).external_links,
        "published": services.published_sections(domain, list(PANELS)),
        **page(request, domain), **abilities(request.user),
    })


def _try(form: forms.ModelForm[DeliverySettings], try_form: AuthTryForm,
         domain: Domain) -> services.AuthTry | None:
    """Send the sample request when the URL, the timeout and the sample are valid; nothing is
    saved either way."""
    valid = form.is_valid() & try_form.is_valid()  # both, so each shows its errors
    if valid and not form.cleaned_data["origin_auth_url"]:
        form.add_error("origin_auth_url", _("Give the auth URL to try."))
        valid = False
    if not valid:
        return None
    return services.try_auth_url(form.cleaned_data["origin_auth_url"],
                        form.cleaned_data["origin_auth_timeout"],
                        uri=try_form.cleaned_data["try_uri"],
                        client_ip=try_form.cleaned_data["try_client_ip"], host=domain.name)


def _turns_links_off(panel: str, form: forms.ModelForm[DeliverySettings],
                     domain: Domain) -> bool:
    return (panel == "external_links" and not form.cleaned_data["external_links"]
            and DeliverySettings.for_domain(domain).external_links)


def _links_off_question(domain: Domain) -> Confirmation:
    names: dict[str, Any] = {"domain": domain.name}
    return Confirmation(
        question=_("Switch external links off for %(domain)s?") % names,
        consequences=[
            _("Once published, every request to %(domain)s is answered 405: no file of the "
              "domain can be fetched, from any page or client.") % names,
            _("Switch it on again and publish to serve the domain again."),
        ],
        button=_("Switch off external links for %(domain)s") % names,
        back_url=reverse("delivery:access"),
        fields={"panel": "external_links"},
    )
