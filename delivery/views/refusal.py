""""Why was I refused?": which check of the domain's published settings would refuse a request,
and why. Read-only: every delivery reader (Auditors included) may use it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from backoffice.annotations import StaffRequest
from console.models import Domain
from delivery import refusal_tester as tester
from delivery.forms.refusal import PROBE_MESSAGES, RefusalProbeForm
from delivery.refusal_tester import ProbeError, Verdict
from delivery.services import check_request
from delivery.views.access import abilities, needs
from delivery.views.domain import page, with_domain

CHECK_NAMES: Mapping[str, Promise] = {
    tester.HTTPS_ACCESS: gettext_lazy("HTTPS access"),
    tester.EXTERNAL_LINKS: gettext_lazy("External links switch"),
    tester.FORCED_HTTPS: gettext_lazy("Forced HTTPS"),
    tester.REWRITE: gettext_lazy("Rewrite rules"),
    tester.IP_BAN: gettext_lazy("IP ban"),
    tester.USER_AGENT: gettext_lazy("User-Agent whitelist"),
    tester.REFERER: gettext_lazy("Referer check"),
    tester.REGION: gettext_lazy("Region restriction"),
    tester.TOKEN: gettext_lazy("Token protection"),
    tester.IP_LIMITS: gettext_lazy("IP access limits"),
    tester.WAF: gettext_lazy("WAF"),
    tester.ORIGIN_AUTH: gettext_lazy("Origin authentication"),
}
OUTCOMES: Mapping[str, Promise] = {
    tester.PASSED: gettext_lazy("passes"),
    tester.REFUSED: gettext_lazy("refuses"),
    tester.ANSWERED: gettext_lazy("answers"),
    tester.OFF: gettext_lazy("off"),
    tester.NOT_REACHED: gettext_lazy("not reached"),
    tester.DEPENDS: gettext_lazy("depends"),
}


def reason(verdict: Verdict) -> str:
    """Why the check decided so, in the person's language ("" when there is nothing to add)."""
    detail = verdict.detail
    key = (verdict.check, verdict.outcome, detail.get("reason", ""))
    texts = {
        (tester.HTTPS_ACCESS, tester.REFUSED, ""): _(
            "HTTPS access is off for this domain: the edge refuses the TLS handshake."),
        (tester.EXTERNAL_LINKS, tester.REFUSED, ""): _(
            "The external-links switch is off: every request of the domain gets 405."),
        (tester.REGION, tester.REFUSED, "allow"): _(
            "The client's country or region %(country)s is not on the allow-only list."),
        (tester.REGION, tester.REFUSED, "block"): _(
            "The client's country or region %(country)s is blocked."),
        (tester.REGION, tester.REFUSED, "unknown"): _(
            "The client's address has no known country, and only listed ones are allowed."),
        (tester.IP_LIMITS, tester.DEPENDS, ""): _(
            "The rule %(pattern)s applies: past %(count)s requests of one address in 60 "
            "seconds, its action (%(action)s, %(seconds)s s) starts."),
        (tester.WAF, tester.REFUSED, ""): _("The WAF recognises an attack (%(kind)s)."),
        (tester.ORIGIN_AUTH, tester.DEPENDS, ""): _(
            "The edge asks %(url)s; only a 200 lets the request through (try it on the "
            "Access page)."),
        (tester.FORCED_HTTPS, tester.ANSWERED, ""): _(
            "Plain HTTP is redirected (301) to %(location)s."),
        (tester.REWRITE, tester.REFUSED, ""): _("A rule ends the request with status %(status)s."),
        (tester.REWRITE, tester.ANSWERED, ""): _(
            "A rule redirects (%(status)s) to %(location)s."),
        (tester.IP_BAN, tester.REFUSED, ""): _("The address is inside the banned %(entry)s."),
        (tester.USER_AGENT, tester.REFUSED, ""): _(
            "The User-Agent matches no entry of the whitelist."),
        (tester.REFERER, tester.REFUSED, "empty"): _(
            "The request has no Referer and “deny empty Referer” is on."),
        (tester.REFERER, tester.PASSED, "empty"): _(
            "The request has no Referer, which bypasses the check."),
        (tester.REFERER, tester.REFUSED, "not_allowed"): _(
            "The Referer host %(host)s is not on the whitelist."),
        (tester.REFERER, tester.REFUSED, "denied"): _(
            "The Referer host %(host)s is on the blacklist."),
        (tester.TOKEN, tester.REFUSED, "missing"): _("The URL carries no _upt token."),
        (tester.TOKEN, tester.REFUSED, "malformed"): _(
            "The _upt token does not end with an expiry time."),
        (tester.TOKEN, tester.REFUSED, "expired"): _(
            "The _upt token expired (its expiry is %(etime)s)."),
        (tester.TOKEN, tester.REFUSED, "signature"): _(
            "The _upt token was not signed with this domain's secret for this path."),
        (tester.TOKEN, tester.PASSED, "unchecked"): _(
            "The token's signature is not checked: this domain's secret is not known here."),
    }
    text = texts.get(key)
    return text % {"status": verdict.status, **detail} if text else ""


def rows(verdicts: list[Verdict]) -> list[dict[str, Any]]:
    return [{"check": CHECK_NAMES[v.check], "key": v.check, "outcome": v.outcome,
             "outcome_label": OUTCOMES[v.outcome], "reason": reason(v), "status": v.status,
             "code": v.code} for v in verdicts]


@needs()
@with_domain
def refusal_tester(request: StaffRequest, domain: Domain) -> HttpResponse:
    context: dict[str, Any] = {"nav": "refusal", **page(request, domain),
                               **abilities(request.user)}
    form = RefusalProbeForm(request.GET if "url" in request.GET else None)
    if form.is_bound and form.is_valid():
        try:
            report = check_request(domain, form.probe())
        except ProbeError as error:  # the form checked the same; kept for a changed rule
            form.add_error(error.field, PROBE_MESSAGES[error.field])
        else:
            stop = tester.first_stop(report.verdicts)
            context.update(report=report, rows=rows(report.verdicts), stop=stop,
                           stop_row=rows([stop])[0] if stop else None)
    context["form"] = form
    return render(request, "delivery/refusal.html", context)
