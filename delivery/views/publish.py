"""Publishing to the edge: what would be sent, the history, and the publish button."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.humanize.templatetags.humanize import intcomma
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from backoffice.annotations import StaffRequest
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from console.models import Domain
from delivery import services
from delivery.models import PublishedConfig, RuleSet
from delivery.services import DeliveryError
from delivery.views.access import MANAGE, abilities, needs
from delivery.views.domain import page, with_domain


def _chosen_rule_set(domain: Domain, value: str | None) -> RuleSet | None:
    own = RuleSet.objects.filter(domain=domain)
    if value:
        return own.filter(pk=value).first() if value.isdigit() else None
    last = services.last_successful_publication(domain)
    return last.rule_set if last and last.rule_set else own.first()


@needs()
@with_domain
def publish_page(request: StaffRequest, domain: Domain) -> HttpResponse:
    rule_set = _chosen_rule_set(domain, request.GET.get("rule_set"))
    errors = services.blocking_errors(rule_set)
    fingerprint = services.current_secret_fingerprint(domain)
    preview = services.preview(domain, rule_set)
    return render(request, "delivery/publish.html", {
        "nav": "publish",
        "rule_sets": RuleSet.objects.filter(domain=domain),
        "rule_set": rule_set,
        "errors": errors,
        "preview_json": json.dumps(preview, indent=2, ensure_ascii=False),
        "preview_sections": list(preview),
        "history": PublishedConfig.objects.filter(domain=domain).select_related(
            "published_by")[:20],
        "secret_changed": services.secret_changed_since_publish(domain, fingerprint),
        "edge_address": services.edge_address(domain),
        **page(request, domain),
        **abilities(request.user),
    })


@needs(MANAGE)
@require_http_methods(["GET", "POST"])
@with_domain
def publish_now(request: StaffRequest, domain: Domain) -> HttpResponse:
    value = request.POST.get("rule_set", "") or request.GET.get("rule_set", "")
    own = RuleSet.objects.filter(domain=domain)
    rule_set = own.filter(pk=value).first() if value.isdigit() else None
    if value and rule_set is None:
        messages.error(request, _("That rule set no longer exists; nothing was published."))
        return redirect("delivery:publish")
    back_url = reverse("delivery:publish") + (f"?rule_set={rule_set.pk}" if rule_set else "")
    back = redirect(back_url)
    try:
        if not confirmed(request):
            # A rule set the publish would refuse is refused now, not after a confirmation.
            if errors := services.blocking_errors(rule_set):
                raise services.PublishBlocked(errors)
            return confirmation_page(request, _publish_question(domain, rule_set, back_url))
        record = services.publish(user=request.user, domain=domain, rule_set=rule_set)
    except services.PublishBlocked as blocked:
        messages.error(request, _("Nothing was published: rules %(numbers)s have errors.") % {
            "numbers": ", ".join(str(n) for n in blocked.errors)})
        return back
    except ProviderNotConfigured as error:
        messages.error(request, _("Nothing was published: %(error)s") % {"error": error})
        return back
    except services.PublishFailed as failed:
        messages.error(request, _("Not published: the console refused %(sections)s (its "
                                  "answers are in the history); retry once corrected.") % {
            "sections": ", ".join(failed.failed)})
        return back
    except DeliveryError as error:
        messages.error(request, _("The edge did not take the configuration: %(error)s") % {
            "error": error})
        return back
    messages.success(request, _("Published to %(target)s for %(domain)s.") % {
        "target": record.target, "domain": domain.name})
    return back


@needs(MANAGE)
@require_POST
@with_domain
def publish_retry(request: StaffRequest, domain: Domain, pk: int) -> HttpResponse:
    """Send again the sections of a failed publication of the page's domain."""
    record = get_object_or_404(PublishedConfig, pk=pk, domain=domain)
    back = redirect("delivery:publish")
    try:
        services.retry(record, user=request.user)
    except services.RetryObsolete:
        messages.error(request, _("Publication #%(n)s has a later one: publish again instead "
                                  "of retrying it.") % {"n": record.pk})
        return back
    except ProviderNotConfigured as error:
        messages.error(request, _("Nothing was published: %(error)s") % {"error": error})
        return back
    except services.PublishFailed as failed:
        messages.error(request, _("Still not published: the console refused %(sections)s.") % {
            "sections": ", ".join(failed.failed)})
        return back
    messages.success(request, _("Publication #%(n)s is now published.") % {"n": record.pk})
    return back


def _publish_question(domain: Domain, rule_set: RuleSet | None,
                      back_url: str) -> Confirmation:
    live = services.last_successful_publication(domain)
    replaces = (_("It replaces the configuration published at %(when)s.") % {
        "when": date_format(localtime(live.published_at), "Y-m-d H:i")}
        if live else _("Nothing was published before."))
    if rule_set is None:
        question = _("Publish the delivery settings of %(domain)s to the edge, with no "
                     "rewrite rules?") % {"domain": domain.name}
    else:
        count = rule_set.rules.count()
        question = ngettext(
            "Publish the delivery settings of %(domain)s and the rule set “%(name)s” "
            "(%(count)s rule) to the edge?",
            "Publish the delivery settings of %(domain)s and the rule set “%(name)s” "
            "(%(count)s rules) to the edge?",
            count,
        ) % {"domain": domain.name, "name": rule_set.name, "count": intcomma(count)}
    return Confirmation(
        question=question,
        consequences=[
            _("The edge applies it at once to every request it serves on this domain; other "
              "domains keep their own."),
            replaces,
            _("It cannot be withdrawn: to go back, publish the earlier rule set again."),
        ],
        button=_("Publish now"),
        back_url=back_url,
        fields={"rule_set": str(rule_set.pk) if rule_set else ""},
    )
