"""The HTTPS page: the account's certificates (upload, list, delete) and the chosen domain's
HTTPS settings (certificate, HTTPS access, forced HTTPS), saved locally and put on the edge by
the next publish. Everyone who opens delivery pages reads it; acting needs
CHANGE_DELIVERY_SETTINGS."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from backoffice.annotations import StaffRequest
from backoffice.security.access import check_permissions
from console.models import Domain
from delivery import services
from delivery.forms.https import CertificateUploadForm, HttpsForm
from delivery.models import Certificate, DeliverySettings
from delivery.views.access import CHANGE_DELIVERY_SETTINGS, abilities, needs
from delivery.views.domain import page, with_domain


@needs()
@with_domain
def https_page(request: StaffRequest, domain: Domain) -> HttpResponse:
    row = DeliverySettings.for_domain(domain)
    upload = CertificateUploadForm()
    bind = HttpsForm(domain=domain, initial={"certificate": row.https_certificate,
                                             "https_access": row.https_access,
                                             "force_https": row.force_https})
    if request.method == "POST":
        check_permissions(request, CHANGE_DELIVERY_SETTINGS)
        action = request.POST.get("action")
        if action == "upload":
            upload = CertificateUploadForm(request.POST, request.FILES)
            if _upload(request, upload):
                return redirect("delivery:https")
        elif action == "bind":
            bind = HttpsForm(request.POST, domain=domain)
            if bind.is_valid():
                services.save_https(domain, bind.choice(), request.user)
                messages.success(request, _("HTTPS settings saved. Publish them to put them "
                                            "on the edge."))
                return redirect("delivery:https")
            messages.error(request, _("Nothing was saved: correct the marked fields."))
        elif action == "delete":
            certificate = get_object_or_404(Certificate, pk=request.POST.get("certificate"))
            try:
                services.delete_certificate(certificate, request.user)
            except services.CertificateInUse as in_use:
                messages.error(request, _("The certificate is bound to %(domains)s: bind "
                                          "another one there first.") % {
                    "domains": ", ".join(in_use.domains)})
            else:
                messages.success(request, _("Certificate deleted."))
            return redirect("delivery:https")
    may_change = request.user.has_perm(CHANGE_DELIVERY_SETTINGS)
    if not may_change:
        for field in bind.fields.values():
            field.disabled = True
    return render(request, "delivery/https.html", {
        "nav": "https", "upload_form": upload, "https_form": bind, "may_change": may_change,
        "settings_row": row, "certificates": _rows(), **page(request, domain),
        **abilities(request.user),
    })


def _upload(request: StaffRequest, form: CertificateUploadForm) -> bool:
    if not form.is_valid():
        messages.error(request, _("Nothing was stored: correct the marked fields."))
        return False
    try:
        certificate = services.upload_certificate(form.cleaned_data["certificate"],
                                                  form.cleaned_data["private_key"],
                                                  request.user)
    except services.CertificateRefused as refused:
        form.add_error(refused.field, refused.message)
        messages.error(request, _("Nothing was stored: %(reason)s") % {
            "reason": refused.message})
        return False
    messages.success(request, _("Certificate uploaded for %(names)s.") % {
        "names": ", ".join(certificate.names)})
    return True


def _rows() -> list[dict[str, Any]]:
    rows = []
    for certificate in Certificate.objects.prefetch_related("bound_settings__domain"):
        rows.append({"certificate": certificate, "days_left": services.days_left(certificate),
                     "domains": [bound.domain.name
                                 for bound in certificate.bound_settings.all()]})
    return rows
