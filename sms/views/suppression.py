"""Suppression list pages: search and export (every reader), add, import, remove (staff with
the model's permissions), and adding a campaign's invalid numbers in one action."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from backoffice.annotations import StaffRequest
from backoffice.security.access import staff_user
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from sms import services
from sms.forms import (
    RespectSuppressionForm,
    SuppressionAddForm,
    SuppressionFilterForm,
    SuppressionImportForm,
)
from sms.models import Campaign, MessageType, SuppressedNumber, SuppressionImport, Template
from sms.views.access import (
    ADD_SUPPRESSED_NUMBER,
    DELETE_SUPPRESSED_NUMBER,
    MANAGE_TEMPLATES,
    abilities,
    needs,
)

PAGE_SIZE = 50


def _filtered(
    request: StaffRequest,
) -> tuple[SuppressionFilterForm, QuerySet[SuppressedNumber]]:
    form = SuppressionFilterForm(request.GET or None)
    if form.is_bound and form.is_valid():
        entries = services.search_suppressed(form.cleaned_data["number"],
                                             form.cleaned_data["reason"])
    else:
        # A bad filter shows its error and the whole list, never a page of nothing.
        entries = services.search_suppressed()
    return form, entries


@needs()
def suppression_list(request: StaffRequest) -> HttpResponse:
    form, entries = _filtered(request)
    page = Paginator(entries, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "sms/suppression_list.html",
        {"form": form, "page": page, "query": query.urlencode(), **abilities(request.user)},
    )


@needs()
def suppression_csv(request: StaffRequest) -> HttpResponseBase:
    """The list as CSV, under the same search; a bad search answers the list page with its
    error (as the order export does), never a file of the whole list taken for the search."""
    form, entries = _filtered(request)
    if form.is_bound and not form.is_valid():
        return suppression_list(request)
    response = StreamingHttpResponse(
        services.suppressed_export_lines(entries),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = 'attachment; filename="suppression-list.csv"'
    return response


@needs(ADD_SUPPRESSED_NUMBER)
def suppression_add(request: StaffRequest) -> HttpResponse:
    form = SuppressionAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            entry = services.add_number(
                data["mobile"], data["reason"], data["note"], user=staff_user(request)
            )
        except services.SuppressionError as error:
            form.add_error("mobile", str(error))
        else:
            messages.success(
                request,
                _("%(mobile)s is on the suppression list.") % {"mobile": entry.mobile},
            )
            return redirect("sms:suppression")
    return render(request, "sms/suppression_add.html", {"form": form})


@needs(DELETE_SUPPRESSED_NUMBER)
@require_http_methods(["GET", "POST"])
def suppression_remove(request: StaffRequest, pk: int) -> HttpResponse:
    """The confirmation page first; once confirmed, remove (recorded in the audit log)."""
    entry = get_object_or_404(SuppressedNumber.objects.select_related("created_by"), pk=pk)
    if not confirmed(request):
        return confirmation_page(request, _removal_question(entry))
    try:
        services.remove_number(entry)
    except services.SuppressionError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("%(mobile)s was removed from the suppression list.") % {"mobile": entry.mobile},
        )
    return redirect("sms:suppression")


def _removal_question(entry: SuppressedNumber) -> Confirmation:
    since = _("On the list since %(date)s: %(reason)s.") % {
        "date": timezone.localtime(entry.created_at).strftime("%Y-%m-%d"),
        "reason": entry.get_reason_display(),
    }
    return Confirmation(
        question=_("Remove %(mobile)s from the suppression list?") % {"mobile": entry.mobile},
        consequences=[
            f"{since} {entry.note}" if entry.note else since,
            _("The number will receive marketing messages again. The removal is recorded in "
              "the audit log."),
        ],
        button=_("Remove the number"),
        back_url=reverse("sms:suppression"),
        items=[entry.mobile],
    )


@needs(ADD_SUPPRESSED_NUMBER)
def suppression_import(request: StaffRequest) -> HttpResponse:
    """Upload and check: the file waits, with its bad lines, for a confirmation."""
    form = SuppressionImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            pending = services.check_import(
                data["file"], data["reason"], data["note"], user=staff_user(request)
            )
        except (services.ImportFileError, services.SuppressionError) as error:
            form.add_error("file", str(error))
        else:
            return redirect("sms:suppression_import_check", pk=pending.pk)
    # Like campaign import drafts, a checked file waits until someone confirms or discards it.
    return render(
        request,
        "sms/suppression_import.html",
        {"form": form, "waiting": services.waiting_suppression_imports()},
    )


@needs(ADD_SUPPRESSED_NUMBER)
def suppression_import_check(request: StaffRequest, pk: int) -> HttpResponse:
    pending = get_object_or_404(SuppressionImport.objects.select_related("created_by"), pk=pk)
    return render(
        request,
        "sms/suppression_import_check.html",
        {
            "pending": pending,
            "problems": services.suppression_problem_rows(pending),
            "more_problems": pending.bad_lines > len(pending.problems),
        },
    )


@needs(ADD_SUPPRESSED_NUMBER)
@require_POST
def suppression_import_confirm(request: StaffRequest, pk: int) -> HttpResponse:
    pending = get_object_or_404(SuppressionImport, pk=pk)
    try:
        added = services.confirm_import(pending, user=staff_user(request))
    except services.SuppressionError as error:
        messages.error(request, str(error))
        return redirect("sms:suppression_import_check", pk=pk)
    messages.success(
        request,
        ngettext(
            "%(count)s number was added to the suppression list.",
            "%(count)s numbers were added to the suppression list.",
            added,
        )
        % {"count": added},
    )
    return redirect("sms:suppression")


@needs(ADD_SUPPRESSED_NUMBER)
@require_POST
def suppression_import_discard(request: StaffRequest, pk: int) -> HttpResponse:
    pending = get_object_or_404(SuppressionImport, pk=pk)
    if pending.confirmed_at is not None:
        # Checked before the question: an added file cannot be discarded.
        messages.error(request, _("This file was already added; it can no longer be discarded."))
        return redirect("sms:suppression")
    if not confirmed(request):
        return confirmation_page(request, Confirmation(
            question=_("Discard the checked file %(name)s?") % {"name": pending.source_name},
            consequences=[
                ngettext(
                    "Its %(count)s new number is not added to the suppression list.",
                    "Its %(count)s new numbers are not added to the suppression list.",
                    pending.new_numbers,
                ) % {"count": pending.new_numbers},
                _("The uploaded copy is deleted; to add the numbers, upload the file again."),
            ],
            button=_("Discard the file"),
            back_url=reverse("sms:suppression_import_check", args=[pk]),
        ))
    try:
        services.discard_import(pending)
    except services.SuppressionError as error:
        messages.error(request, str(error))
        return redirect("sms:suppression_import_check", pk=pk)
    messages.success(request, _("The file was discarded; nothing was added."))
    return redirect("sms:suppression_import")


@needs(ADD_SUPPRESSED_NUMBER)
@require_http_methods(["GET", "POST"])
def campaign_suppress_invalid(request: StaffRequest, pk: int) -> HttpResponse:
    """The confirmation page with the count first; once confirmed, add the campaign's invalid
    numbers (those already on the list are left as they are)."""
    campaign = get_object_or_404(Campaign.objects.select_related("template"), pk=pk)
    if not confirmed(request):
        count = services.invalid_numbers_count(campaign)
        if not count:
            messages.info(request, _("No invalid number was left to add; nothing changed."))
            return redirect("sms:campaign", pk=pk)
        return confirmation_page(request, _suppress_invalid_question(campaign, count))
    added = services.add_invalid_numbers(campaign, user=staff_user(request))
    if added:
        messages.success(
            request,
            ngettext(
                "%(count)s invalid number was added to the suppression list.",
                "%(count)s invalid numbers were added to the suppression list.",
                added,
            )
            % {"count": added},
        )
    else:
        messages.info(request, _("No invalid number was left to add; nothing changed."))
    return redirect("sms:campaign", pk=pk)


def _suppress_invalid_question(campaign: Campaign, count: int) -> Confirmation:
    numbers = {"n": count, "id": campaign.pk}
    return Confirmation(
        question=ngettext(
            "Add the %(n)s invalid number of campaign #%(id)s to the suppression list?",
            "Add the %(n)s invalid numbers of campaign #%(id)s to the suppression list?",
            count,
        ) % numbers,
        consequences=[
            _("These are the numbers the provider refused as invalid (ILLEGAL_MOBILE). They are "
              "added with the reason “Invalid number” and are set aside from later campaigns."),
        ],
        button=ngettext("Add %(n)s number", "Add %(n)s numbers", count) % numbers,
        back_url=reverse("sms:campaign", args=[campaign.pk]),
    )


@needs(MANAGE_TEMPLATES)
@require_POST
def template_respect_suppression(request: StaffRequest, pk: int) -> HttpResponse:
    template = get_object_or_404(Template, pk=pk)
    form = RespectSuppressionForm(request.POST)
    if template.type != MessageType.INDUSTRY or not form.is_valid():
        messages.error(
            request, _("Only an industry template can be set to skip the suppression list.")
        )
        return redirect("sms:templates")
    respect = form.cleaned_data["respect_suppression"]
    services.set_respect_suppression(template, respect)
    if respect:
        text = _("Template #%(id)s now skips numbers on the suppression list.")
    else:
        text = _("Template #%(id)s now sends to numbers on the suppression list too.")
    messages.success(request, text % {"id": template.provider_id})
    return redirect("sms:templates")
