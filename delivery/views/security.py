"""The security page of own-origin domains: WAF, request size limit and IP access limit
rules. Saved locally; the edge gets them on the next publish. A storage domain's page says
these apply to own-origin domains only and shows no form."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from backoffice.annotations import StaffRequest
from backoffice.security.access import check_permissions
from console.models import Domain
from delivery import services
from delivery.forms.security import SecurityForm
from delivery.models import SecuritySettings
from delivery.views.access import CHANGE_DELIVERY_SETTINGS, abilities, needs
from delivery.views.domain import page, with_domain


@needs()
@with_domain
def security_page(request: StaffRequest, domain: Domain) -> HttpResponse:
    context = {"nav": "security", **page(request, domain), **abilities(request.user)}
    if not services.security_applies(domain):
        return render(request, "delivery/security.html", {**context, "form": None})
    row = SecuritySettings.for_domain(domain)
    if request.method == "POST":
        check_permissions(request, CHANGE_DELIVERY_SETTINGS)
        form = SecurityForm(request.POST, instance=row)
        if form.is_valid():
            services.save_security_settings(form.save(commit=False), request.user)
            messages.success(request, _("Security settings saved. Publish them to put them on "
                                        "the edge."))
            return redirect("delivery:security")
        messages.error(request, _("Nothing was saved: correct the marked fields."))
    else:
        form = SecurityForm(instance=row)
    may_change = request.user.has_perm(CHANGE_DELIVERY_SETTINGS)
    if not may_change:
        for field in form.fields.values():
            field.disabled = True
    return render(request, "delivery/security.html", {
        **context, "form": form, "may_change": may_change, "security_row": row})
