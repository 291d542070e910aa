"""The domain the delivery pages show: the switcher's view and the helpers the pages use.

The switcher is a small form (templates/includes/service_switcher.html) posting a domain to
`choose_domain`, which remembers it for the person (console's `choose`) and goes back to the
page it came from. Any app can reuse the include with its own view and options.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import update_wrapper
from typing import Any, Concatenate, ParamSpec

from django.contrib import messages
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from backoffice.annotations import StaffRequest
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.redirects import safe_next
from console.models import Domain
from delivery import services
from delivery.views.access import needs

P = ParamSpec("P")


def switcher(request: StaffRequest, domain: Domain) -> dict[str, Any]:
    """The include's context: where it posts, the options grouped by service, the current
    one, and what the page says it shows."""
    groups: dict[int, dict[str, Any]] = {}
    for option in services.domain_choices(request.user):
        group = groups.setdefault(option.service_id, {"label": str(option.service),
                                                      "options": []})
        group["options"].append({"value": option.pk, "label": option.name,
                                 "selected": option.pk == domain.pk})
    return {
        "action": reverse("delivery:choose_domain"),
        "field": "domain",
        "label": _("Domain"),
        "button": _("Show"),
        "service": domain.service,
        "current": domain.name,
        "groups": list(groups.values()),
        "next": request.get_full_path(),
    }


def page(request: StaffRequest, domain: Domain) -> dict[str, Any]:
    """What every delivery page adds to its context: the domain and the switcher."""
    return {"domain": domain, "switcher": switcher(request, domain)}


def with_domain(
    view: Callable[Concatenate[StaffRequest, Domain, P], HttpResponse]
) -> Callable[Concatenate[StaffRequest, P], HttpResponse]:
    """Hand the view the person's domain; without any domain, a page that says how to add
    one instead of the view."""

    def wrapped(request: StaffRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        try:
            domain = services.page_domain(request.user)
        except ProviderNotConfigured as error:
            return render(request, "delivery/no_domain.html", {"nav": "", "error": str(error)})
        return view(request, domain, *args, **kwargs)

    update_wrapper(wrapped, view)  # its result's type forgets the dropped argument
    return wrapped


@needs()
@require_POST
def choose_domain(request: StaffRequest) -> HttpResponse:
    """Remember the posted domain for this person; 400 for a domain that is not offered."""
    value = request.POST.get("domain", "")
    offered = services.domain_choices(request.user)
    domain = offered.filter(pk=int(value)).first() if value.isdigit() else None
    if domain is None:
        return HttpResponseBadRequest(_("Choose one of the listed domains."))
    services.choose_domain(request.user, domain)
    messages.success(request, _("Now showing %(domain)s (%(service)s).") % {
        "domain": domain.name, "service": domain.service})
    return redirect(safe_next(request, reverse("delivery:index")))
