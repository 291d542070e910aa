"""Template pages: list with filters, create, edit, delete, sync, and the live check."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from sms import rules, services, texts
from sms.forms import TemplateForm
from sms.models import MessageType, ReportType, Template, TemplateStatus
from sms.services import SmsError
from sms.views.access import MANAGE_TEMPLATES, abilities, needs

PROVIDER_FAILURES = (SmsError, services.ProviderNotConfigured)


@needs()
def template_list(request: HttpRequest) -> HttpResponse:
    templates = Template.objects.all()
    filters = {
        "status": request.GET.get("status", ""),
        "type": request.GET.get("type", ""),
        "report_type": request.GET.get("report_type", ""),
        "removed": request.GET.get("removed", ""),
    }
    if filters["status"] in TemplateStatus.values:
        templates = templates.filter(status=filters["status"])
    if filters["type"] in MessageType.values:
        templates = templates.filter(type=filters["type"])
    if filters["report_type"] in ReportType.values:
        templates = templates.filter(report_type=filters["report_type"])
    if not filters["removed"]:
        templates = templates.filter(removed_at__isnull=True)
    quota = services.latest_quota()
    rows = [
        {
            "template": template,
            "blockers": services.send_blockers(template, quota),
            "preview": _template_preview(template),
        }
        for template in templates
    ]
    return render(
        request,
        "sms/template_list.html",
        {
            "rows": rows,
            "filters": filters,
            "statuses": TemplateStatus.choices,
            "types": MessageType.choices,
            "report_types": ReportType.choices,
            "quota": quota,
            **abilities(request.user),
        },
    )


def _template_preview(template: Template) -> rules.MessagePreview:
    return rules.preview_message(
        template.content,
        template.temp_sign,
        template.sign_location,
        [f"{{$var{n}}}" for n in range(1, rules.variable_count(template.content) + 1)],
    )


_Sent = TypeVar("_Sent")


def _review_time(template: Template) -> str:
    expected = services.expected_review(template)
    return texts.review_time_text(expected.kind, expected.expected_by, template.temp_sign)


def _submit(form: TemplateForm, send: Callable[[rules.TemplateDraft], _Sent]) -> _Sent | None:
    """Send the form's draft; the provider's refusals become form errors (None then)."""
    try:
        return send(form.draft())
    except services.TemplateProblems as refused:
        for problem in refused.problems:
            form.add_error(None, texts.problem_text(problem))
    except PROVIDER_FAILURES as error:
        form.add_error(None, texts.failure_text(error))
    return None


@needs(MANAGE_TEMPLATES)
def template_create(request: HttpRequest) -> HttpResponse:
    form = TemplateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        respect = bool(form.respects_suppression())
        template = _submit(form, lambda draft: services.create_template(draft, respect))
        if template is not None:
            messages.success(
                request,
                _("Template #%(id)s was submitted; it is under review.")
                % {"id": template.provider_id} + " " + _review_time(template),
            )
            return redirect("sms:templates")
    return render(request, "sms/template_form.html", {"form": form, "template": None})


@needs(MANAGE_TEMPLATES)
def template_edit(request: HttpRequest, pk: int) -> HttpResponse:
    template = get_object_or_404(Template, pk=pk, removed_at__isnull=True)
    initial = {**services.draft_of(template).__dict__,
               "respect_suppression": template.respect_suppression}
    form = TemplateForm(request.POST or None, initial=initial, editing=True,
                        marketing=template.type == MessageType.MARKETING)
    if request.method == "POST" and form.is_valid():
        respect = form.respects_suppression()
        outcome = _submit(form, lambda draft: services.edit_template(template, draft, respect))
        if outcome is not None:
            said = texts.edit_outcome_text(outcome.what, template.provider_id)
            if outcome.what != services.EditOutcome.UNCHANGED:
                said += " " + _review_time(outcome.template)
            messages.success(request, said)
            return redirect("sms:templates")
    return render(request, "sms/template_form.html", {"form": form, "template": template})


@needs(MANAGE_TEMPLATES)
def template_delete(request: HttpRequest, pk: int) -> HttpResponse:
    template = get_object_or_404(Template, pk=pk, removed_at__isnull=True)
    if confirmed(request):
        try:
            services.delete_template(template)
        except PROVIDER_FAILURES as error:
            messages.error(request, texts.failure_text(error))
        else:
            messages.success(
                request, _("Template #%(id)s was deleted.") % {"id": template.provider_id}
            )
            return redirect("sms:templates")
    return confirmation_page(request, Confirmation(
        question=_("Delete template #%(id)s “%(title)s”?")
        % {"id": template.provider_id, "title": template.title},
        consequences=[
            _("The template is deleted at the provider. Campaigns already sent with it keep "
              "their history here."),
            _("This cannot be undone."),
        ],
        button=_("Delete the template"),
        back_url=reverse("sms:templates"),
        items=[template.content],
    ))


@needs(MANAGE_TEMPLATES)
@require_POST
def template_sync(request: HttpRequest) -> HttpResponse:
    try:
        result = services.sync_templates_and_quota()
    except PROVIDER_FAILURES as error:
        messages.error(request, texts.failure_text(error))
    else:
        messages.success(
            request,
            _("Templates refreshed: %(created)s new, %(updated)s updated, %(removed)s removed.")
            % {"created": result.created, "updated": result.updated, "removed": result.removed},
        )
    return redirect("sms:templates")


@needs()
@require_POST
def template_check(request: HttpRequest) -> JsonResponse:
    """The live check of the template form: every problem and the final text with its cost."""
    draft = rules.TemplateDraft(
        title=request.POST.get("title", ""),
        temp_sign=request.POST.get("temp_sign", ""),
        content=request.POST.get("content", ""),
        sign_location=request.POST.get("sign_location", ""),
        type=request.POST.get("type", ""),
        report_type=request.POST.get("report_type", ""),
    )
    problems_found = rules.check_template(draft)
    problems = [
        {
            "field": problem.field,
            "severity": str(problem.severity),
            "text": texts.problem_text(problem),
        }
        for problem in problems_found
    ]
    count = rules.variable_count(draft.content)
    samples = [
        request.POST.get(f"sample{n}", "").strip() or f"{{$var{n}}}" for n in range(1, count + 1)
    ]
    preview = None
    if draft.content.strip() and draft.sign_location in rules.SIGN_LOCATIONS:
        result = rules.preview_message(draft.content, draft.temp_sign, draft.sign_location, samples)
        # The template's own limit, when broken, is said in the server's words: one count.
        too_long = [p for p in problems_found if p.code == rules.ILLEGAL_CONTENT_LENGTH]
        preview = {
            "text": result.text,
            "length": result.billed_length,
            "units": result.units,
            "summary": texts.problem_text(too_long[0]) if too_long else _preview_summary(result),
        }
    return JsonResponse({"problems": problems, "preview": preview, "variables": count})


def _preview_summary(result: rules.MessagePreview) -> str:
    if result.billed_length is None:
        return _("Fill in every variable to see the length.")
    if result.units is None:
        return _("%(length)s characters: too long to send (at most %(limit)s).") % {
            "length": result.billed_length,
            "limit": rules.MAX_BILLED_LENGTH,
        }
    return ngettext(
        "%(length)s characters with the signature: %(units)s unit per message.",
        "%(length)s characters with the signature: %(units)s units per message.",
        result.units,
    ) % {"length": result.billed_length, "units": result.units}
