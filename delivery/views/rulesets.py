"""Rule sets: list, editor (syntax errors shown as you type), tester and lint endpoints.

The lint and test endpoints take JSON and change nothing, so every user who may open the
delivery pages may use them (an Auditor can check a rule without being able to save it).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from backoffice.annotations import StaffRequest
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security import bounded_input
from backoffice.security.access import check_permissions
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from console.models import Domain
from delivery import services, texts
from delivery.forms import RuleFormSet, RuleSetForm
from delivery.models import RuleSet, RuleState
from delivery.tester import SampleInputError, SampleRequest
from delivery.views.access import (
    ADD_RULE_SET,
    CHANGE_RULE_SET,
    DELETE_RULE_SET,
    abilities,
    needs,
)
from delivery.views.domain import page, with_domain
from edgerules import lint
from edgerules.diagnostics import MISSING_VARIABLE
from providerkit.json_types import JSONObject, JSONValue

MAX_JSON_BYTES = 256 * 1024
MAX_RULES = 500


@needs()
@with_domain
def rule_set_list(request: StaffRequest, domain: Domain) -> HttpResponse:
    published = services.last_successful_publication(domain)
    return render(request, "delivery/ruleset_list.html", {
        "nav": "rules",
        "rule_sets": RuleSet.objects.filter(domain=domain),
        "published_id": published.rule_set_id if published else None,
        **page(request, domain),
        **abilities(request.user),
    })


@needs()
@with_domain
def rule_set_edit(request: StaffRequest, domain: Domain, pk: int | None = None) -> HttpResponse:
    rule_set = (get_object_or_404(RuleSet, pk=pk, domain=domain) if pk is not None
                else RuleSet(domain=domain))
    may_save = request.user.has_perm(CHANGE_RULE_SET if pk is not None else ADD_RULE_SET)
    if pk is None and not may_save:
        check_permissions(request, ADD_RULE_SET)
    if request.method == "POST":
        check_permissions(request, CHANGE_RULE_SET if pk is not None else ADD_RULE_SET)
        form = RuleSetForm(request.POST, instance=rule_set)
        formset = RuleFormSet(request.POST, instance=rule_set, prefix="rules",
                              form_kwargs={"client_address": _client_address(request)})
        if form.is_valid() and formset.is_valid():
            saved = services.save_rule_set(
                form.save(commit=False),
                kept=[rule_form.instance for rule_form in formset.kept_forms_in_order()],
                deleted=[rule_form.instance for rule_form in formset.deleted_forms],
                user=request.user,
            )
            messages.success(request, _("Rule set “%(name)s” saved.") % {"name": saved.name})
            return redirect("delivery:ruleset_edit", pk=saved.pk)
        messages.error(request, _("Nothing was saved: correct the marked fields."))
    else:
        form = RuleSetForm(instance=rule_set)
        formset = RuleFormSet(instance=rule_set, prefix="rules",
                              form_kwargs={"client_address": _client_address(request)})
    if not may_save:
        for field in form.fields.values():
            field.disabled = True
        for rule_form in formset.forms:
            for field in rule_form.fields.values():
                field.disabled = True
    return render(request, "delivery/ruleset_edit.html", {
        "nav": "rules", "rule_set": rule_set, "form": form, "formset": formset,
        "may_save": may_save, "methods": ("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"),
        "editor_texts": _editor_texts(), "functions": texts.function_reference(),
        "variables": texts.variable_reference(), "client_address": _client_address(request),
        **page(request, domain), **abilities(request.user),
    })


def _client_address(request: StaffRequest) -> str:
    """The address the editor is used from: a new rule is in test for it (the public page).
    REMOTE_ADDR, as the proxy in front of the back-office sets it."""
    address: str = request.META.get("REMOTE_ADDR", "")
    return address


def _editor_texts() -> dict[str, str]:
    """Sentences the editor script shows, translated here (the script has no catalogue)."""
    return {
        "ok": _("No syntax errors."),
        "failed": _("The rule could not be checked: %(error)s"),
        "running": _("Running…"),
        "test_failed": _("The tester could not run: %(error)s"),
    }


@needs(DELETE_RULE_SET)
@require_http_methods(["GET", "POST"])
@with_domain
def rule_set_delete(request: StaffRequest, domain: Domain, pk: int) -> HttpResponse:
    rule_set = get_object_or_404(RuleSet, pk=pk, domain=domain)
    name = rule_set.name
    if not confirmed(request):
        count = rule_set.rules.count()
        return confirmation_page(request, Confirmation(
            question=ngettext("Delete the rule set “%(name)s” and its %(count)s rule?",
                              "Delete the rule set “%(name)s” and its %(count)s rules?",
                              count) % {"name": name, "count": count},
            consequences=[
                _("The edge keeps what was last published until the next publish."),
                _("This cannot be undone."),
            ],
            button=_("Delete the rule set"),
            back_url=reverse("delivery:ruleset_edit", args=[rule_set.pk]),
        ))
    services.delete_rule_set(rule_set)
    messages.success(request, _("Rule set “%(name)s” deleted; the edge keeps what was last "
                                "published until the next publish.") % {"name": name})
    return redirect("delivery:ruleset_list")


def _json_body(request: StaffRequest) -> JSONValue:
    if len(request.body) > MAX_JSON_BYTES:
        raise ValueError(_("The request is too large."))
    try:
        return bounded_input.loads(request.body or b"{}")
    except bounded_input.JsonTooDeep:
        raise
    except ValueError:
        raise ValueError(_("The request body is not JSON.")) from None


def _text(value: object, name: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(_("“%(name)s” must be text.") % {"name": name})
    return value


@needs()
@require_POST
def lint_endpoint(request: StaffRequest) -> JsonResponse:
    """`{"rule": "...", "pattern": "..."}` -> `{"diagnostics": [...]}` with line/column."""
    try:
        payload = _json_body(request)
        if not isinstance(payload, dict):
            raise ValueError(_("Send a JSON object."))
        rule = _text(payload.get("rule"), "rule")
        pattern = _text(payload.get("pattern"), "pattern")
    except ValueError as error:
        return JsonResponse({"error": str(error)}, status=400)
    found = lint(rule, pattern=pattern)
    return JsonResponse({"diagnostics": [texts.diagnostic_dict(d) for d in found]})


def _specs(payload: JSONObject) -> list[JSONObject]:
    rules = payload.get("rules")
    if not isinstance(rules, list) or len(rules) > MAX_RULES:
        raise ValueError(_("“rules” must be a list of at most %(n)s rules.") % {"n": MAX_RULES})
    specs: list[JSONObject] = []
    for number, item in enumerate(rules, start=1):
        if not isinstance(item, dict):
            raise ValueError(_("Rule %(n)s must be an object.") % {"n": number})
        state = item.get("state")
        if state is None:  # the older shape: debug on is "in test"
            state = RuleState.TEST if item.get("debug", True) else RuleState.ENABLED
        if state not in RuleState.values:
            raise ValueError(_("Rule %(n)s: “state” must be one of %(states)s.") % {
                "n": number, "states": ", ".join(RuleState.values)})
        given = item.get("test_addresses", [])
        if isinstance(given, str):
            given = [*given.split()]
        if not isinstance(given, list) or not all(isinstance(a, str) for a in given):
            raise ValueError(_("Rule %(n)s: “test_addresses” must be a list of addresses.") % {
                "n": number})
        addresses = [str(address) for address in given]
        specs.append({
            "pattern": _text(item.get("pattern"), "pattern"),
            "rule": _text(item.get("rule"), "rule"),
            "break": bool(item.get("break")),
            "state": state,
            "test_addresses": [*addresses],
        })
    return specs


def _test_request(payload: JSONObject) -> SampleRequest:
    data = payload.get("request")
    if not isinstance(data, dict):
        raise ValueError(_("“request” must be an object."))
    return SampleRequest(
        method=_text(data.get("method"), "method") or "GET",
        url=_text(data.get("url"), "url"),
        headers=_text(data.get("headers"), "headers"),
        cookies=_text(data.get("cookies"), "cookies"),
        body=_text(data.get("body"), "body"),
        preview=bool(data.get("preview")),
        ip=_text(data.get("ip"), "ip"),
    )


@needs()
@require_POST
def test_endpoint(request: StaffRequest) -> JsonResponse:
    """`{"rules": [...], "request": {method, url, headers, cookies, body, preview}}` ->
    the outcome and its trace as data and as rendered HTML."""
    try:
        payload = _json_body(request)
        if not isinstance(payload, dict):
            raise ValueError(_("Send a JSON object."))
        specs = _specs(payload)
        typed = _test_request(payload)
    except ValueError as error:
        return JsonResponse({"error": str(error)}, status=400)
    try:
        domain: Domain | None = services.page_domain(request.user)
    except ProviderNotConfigured:
        domain = None  # the tester still runs, on a stand-in host
    try:
        outcome = services.run_test(domain, specs, typed)
    except SampleInputError as error:
        return JsonResponse({"input_errors": [
            {"field": p.field, "line": p.line, "text": texts.input_problem_text(p)}
            for p in error.problems]}, status=400)
    data = services.outcome_dict(outcome)
    for step in data["trace"]:
        step["status_text"] = str(texts.STEP_STATUS.get(step["status"], step["status"]))
        if step["error"]:
            step["error"]["text"] = _error_text(step["error"])
    html = render_to_string("delivery/_test_outcome.html", {"outcome": data}, request=request)
    return JsonResponse({"outcome": data, "html": html})


def _error_text(error: dict[str, Any]) -> str:
    if error["code"] == MISSING_VARIABLE and error.get("subject"):
        # An absent variable written into the rule's own text (DECISIONS.md): name it.
        return _("rewrite failed: `%(variable)s` is absent (line %(line)s, column %(column)s)") % {
            "variable": error["subject"], "line": error["line"], "column": error["column"]}
    title = texts.DIAGNOSTICS.get(str(error["code"]))
    return _("%(field)s line %(line)s, column %(column)s: %(title)s (%(detail)s)") % {
        "field": _("pattern") if error["field"] == "pattern" else _("rule"),
        "line": error["line"], "column": error["column"],
        "title": title or error["code"], "detail": error["message"]}
