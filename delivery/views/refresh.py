"""The console's refreshes beside the purge page: rule refresh, URL preheat and whole-site
refresh, each a tab of one page that also lists the operations with the provider's progress.
Reading needs `access_delivery`; sending needs `purge_cache`."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from backoffice.annotations import StaffRequest
from backoffice.security.access import check_permissions
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from console.models import Domain
from delivery import services
from delivery.forms import RefreshItemsForm
from delivery.models import RefreshOperation, RefreshState
from delivery.views.access import PURGE, abilities, needs
from delivery.views.domain import page, with_domain

TABS = {"rule": "delivery:refresh_rule", "preheat": "delivery:refresh_preheat",
        "site": "delivery:refresh_site"}


def _render(request: StaffRequest, domain: Domain, tab: str, *,
            form: RefreshItemsForm | None = None, status: int = 200) -> HttpResponse:
    return render(request, "delivery/refresh.html", {
        "nav": "purge", "tab": tab, "form": form,
        "records": services.operation_records(domain),
        "max_patterns": services.MAX_PATTERNS, "max_urls": services.MAX_PREHEAT_URLS,
        **page(request, domain),
        **abilities(request.user),
    }, status=status)


def _outcome(request: StaffRequest, operation: RefreshOperation) -> None:
    """One message for the whole operation; the per-item answers are in the list below."""
    accepted = sum(1 for answer in operation.answers
                   if isinstance(answer, dict) and answer.get("code") == 1)
    if operation.status == RefreshState.FAILED:
        messages.error(request, _("The console could not be asked (%(error)s); nothing was "
                                  "refreshed. Send it again later.") % {
            "error": operation.error})
    elif operation.status == RefreshState.ACCEPTED:
        messages.success(request, ngettext(
            "The console accepted %(count)s item.", "The console accepted all %(count)s items.",
            accepted) % {"count": accepted})
    else:
        refused = len(operation.answers) - accepted
        messages.warning(request, _(
            "The console accepted %(accepted)s and refused %(refused)s; see each item's answer "
            "below.") % {"accepted": accepted, "refused": refused})


def _items_view(request: StaffRequest, domain: Domain, *, patterns: bool) -> HttpResponse:
    tab = "rule" if patterns else "preheat"
    form = RefreshItemsForm(request.POST or None, domain=domain, patterns=patterns)
    if request.method != "POST":
        return _render(request, domain, tab, form=form)
    check_permissions(request, PURGE)
    if not form.is_valid():
        return _render(request, domain, tab, form=form, status=400)
    items: list[str] = form.cleaned_data["items"]
    if patterns and not confirmed(request):
        return confirmation_page(request, _rule_question(items, request.POST["items"]))
    if patterns:
        operation = services.refresh_rules(items, domain, request.user)
    else:
        operation = services.preheat(items, domain, request.user)
    _outcome(request, operation)
    return redirect(TABS[tab])


@needs()
@with_domain
def rule_refresh(request: StaffRequest, domain: Domain) -> HttpResponse:
    return _items_view(request, domain, patterns=True)


@needs()
@with_domain
def url_preheat(request: StaffRequest, domain: Domain) -> HttpResponse:
    return _items_view(request, domain, patterns=False)


@needs()
@with_domain
def site_refresh(request: StaffRequest, domain: Domain) -> HttpResponse:
    if request.method != "POST":
        return _render(request, domain, "site")
    check_permissions(request, PURGE)
    if not domain.service.is_cdn:
        messages.error(request, _(
            "%(domain)s is a domain of the storage service %(service)s: whole-site refresh is "
            "for domains of a CDN service with its own origin. Refresh its URLs or patterns "
            "instead.") % {"domain": domain.name, "service": domain.service.name})
        return redirect("delivery:refresh_site")
    if not confirmed(request):
        return confirmation_page(request, _site_question(domain))
    _outcome(request, services.refresh_site(domain, request.user))
    return redirect("delivery:refresh_site")


def _rule_question(patterns: list[str], typed: str) -> Confirmation:
    count = len(patterns)
    return Confirmation(
        question=ngettext("Refresh every cached file matching %(count)s pattern?",
                          "Refresh every cached file matching these %(count)s patterns?",
                          count) % {"count": count},
        consequences=[
            _("The edge treats the matching files as expired: the next requests for them go "
              "to the origin, which is slower and costs origin traffic."),
            _("This cannot be undone."),
        ],
        button=ngettext("Refresh %(count)s pattern", "Refresh %(count)s patterns", count)
        % {"count": count},
        back_url=reverse("delivery:refresh_rule"),
        fields={"items": typed},
        items=patterns,
    )


def _site_question(domain: Domain) -> Confirmation:
    return Confirmation(
        question=_("Refresh the whole site %(domain)s?") % {"domain": domain.name},
        consequences=[
            _("The edge drops every cached file of %(domain)s: all the next requests go to "
              "the origin until the cache is warm again.") % {"domain": domain.name},
            _("This cannot be undone."),
        ],
        button=_("Refresh %(domain)s") % {"domain": domain.name},
        back_url=reverse("delivery:refresh_site"),
        items=[services.site_pattern(domain)],
    )

