"""The delivery report: search our messages, page by keyset, export as CSV, sync now."""

from __future__ import annotations

from django.contrib import messages
from django.http import (
    FileResponse,
    Http404,
    HttpResponse,
    HttpResponseBase,
    StreamingHttpResponse,
)
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from backoffice.annotations import StaffRequest
from sms import services, texts
from sms.forms import ReportFilterForm
from sms.models import MessageArchive
from sms.services import SmsError
from sms.views.access import SEND, abilities, needs


def _filters(form: ReportFilterForm) -> services.ReportFilters:
    data = form.cleaned_data
    return services.ReportFilters(
        mobile=data.get("mobile") or "",
        status=data.get("status") or "",
        date_from=data.get("date_from"),
        date_to=data.get("date_to"),
        campaign_id=data.get("campaign"),
    )


def _cursor(request: StaffRequest, name: str) -> int | None:
    value = request.GET.get(name, "")
    # isdigit() alone accepts "²" or "٣", which int() refuses.
    return int(value) if value.isascii() and value.isdigit() else None


@needs()
def report(request: StaffRequest) -> HttpResponse:
    form = ReportFilterForm(request.GET or None)
    page = None
    totals: list[services.StatusTotal] = []
    if not request.GET or form.is_valid():
        filters = _filters(form) if request.GET else services.ReportFilters()
        page = services.report_page(
            filters, before=_cursor(request, "before"), after=_cursor(request, "after")
        )
        totals = services.status_totals(filters)
    query = request.GET.copy()
    for name in ("before", "after"):
        query.pop(name, None)
    # The totals link to the same search narrowed to their status.
    by_status = query.copy()
    by_status.pop("status", None)
    return render(
        request,
        "sms/report.html",
        {
            "form": form,
            "page": page,
            "totals": totals,
            "query": query.urlencode(),
            "query_without_status": by_status.urlencode(),
            "kept_from": services.kept_from().first_day,
            "archives": services.message_archives(),
            **abilities(request.user),
        },
    )


@needs()
def report_csv(request: StaffRequest) -> HttpResponseBase:
    form = ReportFilterForm(request.GET or None)
    if request.GET and not form.is_valid():
        return render(request, "sms/report.html", {"form": form, "page": None, "query": ""})
    filters = _filters(form) if request.GET else services.ReportFilters()
    response = StreamingHttpResponse(
        services.report_csv_bytes(filters), content_type="text/csv; charset=utf-8"
    )
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M%S")
    response["Content-Disposition"] = f'attachment; filename="sms-report-{stamp}.csv"'
    return response


@needs()
def report_archive(request: StaffRequest, pk: int) -> HttpResponseBase:
    """An archived month of messages, as the CSV the retention job wrote."""
    try:
        archive, opened = services.open_archive(pk)
    except MessageArchive.DoesNotExist:
        raise Http404 from None
    return FileResponse(opened, as_attachment=True, content_type="text/csv; charset=utf-8",
                        filename=f"sms-messages-{archive.month:%Y-%m}.csv")


@needs(SEND)
@require_POST
def report_sync(request: StaffRequest) -> HttpResponse:
    try:
        result = services.sync_reports()
    except (SmsError, services.ProviderNotConfigured) as error:
        messages.error(request, texts.failure_text(error))
    else:
        if result.busy:
            messages.info(
                request,
                ngettext(
                    "The delivery report is being read already (the scheduled sync); "
                    "%(left)s message still waits for a final status.",
                    "The delivery report is being read already (the scheduled sync); "
                    "%(left)s messages still wait for a final status.",
                    result.open_left,
                )
                % {"left": result.open_left},
            )
            return redirect("sms:report")
        messages.success(
            request,
            # Three counts, each with its own plural: one ngettext a count.
            " ".join((
                ngettext("Delivery report read: %(pages)s page.",
                         "Delivery report read: %(pages)s pages.", result.pages)
                % {"pages": result.pages},
                ngettext("%(moved)s message updated.", "%(moved)s messages updated.",
                         result.moved_total) % {"moved": result.moved_total},
                ngettext("%(left)s still waits for a final status.",
                         "%(left)s still wait for a final status.", result.open_left)
                % {"left": result.open_left},
            )),
        )
    return redirect("sms:report")
