"""The purge page: refresh edge URLs now (at most 600 a minute), and the purge history."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.humanize.templatetags.humanize import intcomma
from django.db.models import Q, QuerySet
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from backoffice.annotations import StaffRequest
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.access import check_permissions
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from console.models import Domain
from delivery import services, texts
from delivery.forms import PurgeForm
from delivery.models import PurgeRequest, PurgeStatus
from delivery.views.access import PURGE, abilities, needs
from delivery.views.domain import page, with_domain


@needs()
@with_domain
def purge_page(request: StaffRequest, domain: Domain) -> HttpResponse:
    form = PurgeForm(request.POST or None)
    if request.method == "POST":
        check_permissions(request, PURGE)
        if form.is_valid():
            outcome = _purge(request, form)
            if isinstance(outcome, HttpResponse):
                return outcome
            if outcome:
                return redirect("delivery:purge")
    return render(request, "delivery/purge.html", {
        "nav": "purge", "form": form,
        "history": _history(domain)[:30],
        "limit": services.MAX_URLS_PER_MINUTE,
        **page(request, domain),
        **abilities(request.user),
    })


def _history(domain: Domain) -> QuerySet[PurgeRequest]:
    """The purges that touched the domain, and manual ones that touched none of ours (they
    belong to no page else)."""
    return (PurgeRequest.objects.filter(Q(domains=domain) | Q(domains__isnull=True))
            .distinct().select_related("requested_by").prefetch_related("domains"))


def _purge(request: StaffRequest, form: PurgeForm) -> bool | HttpResponse:
    """Send the purge; False (the form stays, with its errors) when nothing was sent, the
    confirmation page while the URLs are checked but not yet confirmed."""
    try:
        urls = services.parse_urls(form.cleaned_data["urls"])
    except services.PurgeInputError as error:
        for message in texts.purge_input_texts(error):
            form.add_error("urls", message)
        return False
    if not confirmed(request):
        return confirmation_page(request, _purge_question(urls, form.cleaned_data["urls"]))
    try:
        purge = services.request_manual_purge(urls, request.user)
    except services.PurgeWindowFull as full:
        form.add_error("urls", texts.window_full_text(full))
        return False
    except ProviderNotConfigured as error:
        form.add_error(None, str(error))
        return False
    if purge.status == PurgeStatus.SENT:
        messages.success(request, _("%(n)s URLs sent for refresh.") % {"n": purge.url_count})
        if purge.invalid_domains:
            messages.warning(request, _("The provider does not serve the domain of these "
                                        "URLs: %(urls)s") % {
                "urls": ", ".join(purge.invalid_domains)})
    elif purge.status == PurgeStatus.FAILED:
        messages.error(request, _("The purge did not go through (%(error)s); it will be "
                                  "retried automatically.") % {"error": _error_text(purge)})
    else:
        messages.error(request, _("The provider refused the purge: %(error)s") % {
            "error": _error_text(purge)})
    return True


def _error_text(purge: PurgeRequest) -> str:
    """The translated wording of the error's kind, else the error as recorded."""
    return purge.get_error_kind_display() if purge.error_kind else purge.error


def _purge_question(urls: list[str], typed: str) -> Confirmation:
    count = len(urls)
    return Confirmation(
        question=ngettext(
            "Refresh %(count)s URL at the edge?", "Refresh %(count)s URLs at the edge?", count
        ) % {"count": intcomma(count)},
        consequences=[
            _("The edge drops its cached copies at once: the next requests for them go to the "
              "origin, which is slower and costs origin traffic."),
            _("This cannot be undone."),
        ],
        button=ngettext("Refresh %(count)s URL", "Refresh %(count)s URLs", count)
        % {"count": intcomma(count)},
        back_url=reverse("delivery:purge"),
        fields={"urls": typed},
        items=urls,
    )
