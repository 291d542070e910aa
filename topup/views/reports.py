"""Daily reconciliation reports: the list, one report, and making one on demand."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from backoffice.annotations import StaffRequest
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.ui.errors import NotFoundForStaff
from topup import services
from topup.forms import ReportRunForm
from topup.models import ReconciliationReport
from topup.views.access import ADD_RECONCILIATION_REPORT, abilities, needs


@require_GET
@needs()
def report_list(request: StaffRequest) -> HttpResponse:
    reports = Paginator(ReconciliationReport.objects.all(), 31).get_page(request.GET.get("page"))
    return render(request, "topup/report_list.html", {
        "reports": reports, "form": ReportRunForm(), **abilities(request.user)})


@require_GET
@needs()
def report_detail(request: StaffRequest, day: str) -> HttpResponse:
    try:
        report = ReconciliationReport.objects.get(day=date.fromisoformat(day))
    except (ValueError, ReconciliationReport.DoesNotExist):
        raise NotFoundForStaff(_("No report for %(day)s.") % {"day": day}) from None
    discrepancies = report.discrepancies.select_related("order", "receipt")
    return render(request, "topup/report_detail.html", {
        "report": report, "discrepancies": discrepancies, **abilities(request.user)})


@require_POST
@needs(ADD_RECONCILIATION_REPORT)
def report_run(request: StaffRequest) -> HttpResponse:
    form = ReportRunForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("day", []):
            messages.error(request, str(error))
        return redirect("topup:report_list")
    try:
        report = services.build_report(form.cleaned_data["day"], user=request.user)
    except ProviderNotConfigured as error:
        messages.error(request, str(error))
        return redirect("topup:report_list")
    found = report.discrepancies.count()
    messages.success(request, ngettext(
        "Report of %(day)s made: %(count)d discrepancy.",
        "Report of %(day)s made: %(count)d discrepancies.", found,
    ) % {"day": report.day, "count": found})
    return redirect("topup:report_detail", day=report.day.isoformat())
