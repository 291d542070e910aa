"""The delivery settings page: domain settings and custom image versions. Saved locally; the
edge gets them on the next publish."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from backoffice.annotations import StaffRequest
from backoffice.security.access import check_permissions
from console.models import Domain
from delivery import services
from delivery.forms import DeliverySettingsForm, ImageVersionFormSet
from delivery.models import DeliverySettings, ImageVersion
from delivery.views.access import (
    ADD_IMAGE_VERSION,
    CHANGE_DELIVERY_SETTINGS,
    CHANGE_IMAGE_VERSION,
    DELETE_IMAGE_VERSION,
    abilities,
    needs,
)
from delivery.views.domain import page, with_domain


@needs()
@with_domain
def settings_page(request: StaffRequest, domain: Domain) -> HttpResponse:
    row = DeliverySettings.for_domain(domain)
    own = ImageVersion.objects.filter(domain=domain)
    user = request.user
    if request.method == "POST":
        check_permissions(request, CHANGE_DELIVERY_SETTINGS, CHANGE_IMAGE_VERSION,
                          ADD_IMAGE_VERSION, DELETE_IMAGE_VERSION)
        form = DeliverySettingsForm(request.POST, instance=row)
        versions = ImageVersionFormSet(request.POST, queryset=own, prefix="versions",
                                       form_kwargs={"domain": domain})
        if form.is_valid() and versions.is_valid():
            changed = versions.save(commit=False)  # builds the rows, writes nothing
            for version in changed:
                version.domain = domain
            services.save_delivery_settings(form.save(commit=False), changed,
                                            versions.deleted_objects, user)
            messages.success(request, _("Settings saved. Publish them to put them on the "
                                        "edge."))
            return redirect("delivery:settings")
        messages.error(request, _("Nothing was saved: correct the marked fields."))
    else:
        form = DeliverySettingsForm(instance=row)
        versions = ImageVersionFormSet(queryset=own, prefix="versions",
                                       form_kwargs={"domain": domain})
    may_change = user.has_perms((CHANGE_DELIVERY_SETTINGS, CHANGE_IMAGE_VERSION))
    if not may_change:
        for field in form.fields.values():
            field.disabled = True
        for version_form in versions.forms:
            for field in version_form.fields.values():
                field.disabled = True
    fingerprint = services.current_secret_fingerprint(domain)
    return render(request, "delivery/settings.html", {
        "nav": "settings", "form": form, "versions": versions, "may_change": may_change,
        "secret_fingerprint": fingerprint,
        "secret_changed": services.secret_changed_since_publish(domain, fingerprint),
        "settings_row": row, **page(request, domain), **abilities(user),
    })
