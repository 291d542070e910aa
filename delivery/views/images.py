"""The image URL builder (custom versions or URL parameters) and its live preview.

The preview is fetched by the back-office from the edge (a proxy view), not by the browser:
the browser may not reach the edge, and token protection or a Referer rule would refuse a
plain <img>. The proxy only ever fetches the URL it builds itself from the form, under the
configured edge address, so it cannot be pointed anywhere else.
"""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from backoffice.annotations import StaffRequest
from backoffice.operations.provider import ProviderNotConfigured
from console.models import Domain
from delivery import services
from delivery.forms import ImageForm, add_link_errors
from delivery.models import DeliverySettings
from delivery.rules import LinkError
from delivery.services import Signing, preview_signing
from delivery.views.access import SIGN, abilities, needs
from delivery.views.domain import page, with_domain
from storage import services as storage


def build_image_url(domain: Domain, form: ImageForm, signing: Signing | None) -> str:
    data = form.cleaned_data
    if data["mode"] == ImageForm.MODE_VERSION:
        return services.version_link(domain, data["path"], data["version"], signing,
                                     form.version_pairs())
    return services.processed_link(domain, data["path"], form.pairs(), signing)


@needs()
@require_GET
@with_domain
def image_builder(request: StaffRequest, domain: Domain) -> HttpResponse:
    may_sign = request.user.has_perm(SIGN)
    # A link from the storage file browser carries only `path`: fill it in, check nothing yet.
    submitted = "mode" in request.GET
    row = DeliverySettings.for_domain(domain)
    form = ImageForm(request.GET if submitted else None, may_sign=may_sign, domain=domain,
                     token_protection=row.token_protection,
                     initial={"path": request.GET.get("path", "")})
    url = ""
    unsigned = False
    errors: list[str] = []
    if submitted and form.is_valid():
        try:
            url = build_image_url(domain, form, form.signing())
            unsigned = form.refused_by_edge()
        except LinkError as error:
            add_link_errors(form, error, {"version": "version"})
        except ProviderNotConfigured as error:
            errors.append(str(error))
    return render(request, "delivery/images.html", {
        "nav": "images", "form": form, "url": url, "page_errors": errors, "unsigned": unsigned,
        "size_texts": storage.size_texts(),
        "separator": row.separator, "preview_texts": _preview_texts(),
        **page(request, domain), **abilities(request.user)})


def _preview_texts() -> dict[str, str]:
    """Sentences the preview script shows, translated here (the script has no catalogue)."""
    return {
        "loading": _("Loading the processed image from the edge…"),
        "info": _("{width} × {height} px · {type} · {size} · edge cache: {cache}"),
        "empty": _("Fill in a file path and some processing to see the image."),
        "failed": _("The preview could not be loaded."),
    }


@needs()
@require_GET
def image_preview(request: StaffRequest) -> HttpResponse:
    """The processed image as the edge serves it; JSON errors (400 input, 502 edge, 503
    without a domain)."""
    try:
        domain = services.page_domain(request.user)
    except ProviderNotConfigured as error:
        return JsonResponse({"errors": [str(error)]}, status=503)
    form = ImageForm(request.GET, may_sign=False, domain=domain)
    if not form.is_valid():
        return _invalid(form)
    row = DeliverySettings.for_domain(domain)
    try:
        plain_url = build_image_url(domain, form, None)
        url = build_image_url(domain, form, preview_signing(row.token_protection))
    except LinkError as error:
        add_link_errors(form, error)
        return _invalid(form)
    except ProviderNotConfigured as error:
        return JsonResponse({"errors": [str(error)]}, status=503)
    response = _fetch(url, force_https=row.force_https)
    # The URL without the preview's token: the page shows it, and it grants nothing.
    response["X-Edge-URL"] = plain_url
    return response


def _fetch(url: str, *, force_https: bool) -> HttpResponse:
    try:
        answer = services.fetch_from_edge(url, force_https=force_https)
    except services.DeliveryConnectionError as error:
        return JsonResponse({"errors": [_("The edge did not answer: %(error)s") % {
            "error": error}]}, status=502)
    if answer.too_large:
        return JsonResponse({"errors": [_("The processed image is larger than 20 MB.")]},
                            status=502)
    if answer.status != 200:
        return JsonResponse({"errors": [_("The edge answered %(status)s: %(body)s") % {
            "status": answer.status, "body": answer.body[:300].decode("utf-8", "replace")}],
            "edge_status": answer.status}, status=502)
    response = HttpResponse(answer.body, content_type=answer.content_type)
    response["X-Edge-Cache"] = answer.cache
    response["Cache-Control"] = "no-store"
    return response


def _invalid(form: ImageForm) -> JsonResponse:
    """A 400 whose field errors go beside their fields (`fields`), so that the preview lists
    only what belongs to no field and never repeats a message shown at its field."""
    fields = {name: [str(message) for message in messages]
              for name, messages in form.errors.items() if name in form.fields}
    others = [str(message) for message in form.non_field_errors()]
    if fields and not others:
        others = [_("Correct the marked fields to see the image.")]
    return JsonResponse({"errors": others, "fields": fields}, status=400)
