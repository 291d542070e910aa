"""The audit log for Auditors: filter by person, app, action and date; export to CSV.

Read-only by construction: the page has no form that writes, and the model refuses changes.
The CSV goes through the same formula guard as the SMS report export.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any, cast

from django import forms
from django.contrib.auth.decorators import permission_required
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from backoffice.annotations import StaffRequest
from backoffice.models import AuditEntry
from backoffice.ui.csv_export import csv_lines

PAGE_SIZE = 50
VIEW_PERMISSION = "backoffice.view_auditentry"


class AuditFilterForm(forms.Form):
    person = forms.CharField(label=gettext_lazy("Person"), required=False, max_length=150)
    app = forms.ChoiceField(label=gettext_lazy("App"), required=False)
    action = forms.CharField(label=gettext_lazy("Action"), required=False, max_length=60)
    since = forms.DateField(label=gettext_lazy("From"), required=False,
                            widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label=gettext_lazy("To"), required=False,
                            widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        apps = AuditEntry.objects.order_by("app").values_list("app", flat=True).distinct()
        app_field = cast(forms.ChoiceField, self.fields["app"])
        app_field.choices = [("", _("Any app")), *((a, a) for a in apps)]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        since, until = cleaned.get("since"), cleaned.get("until")
        if since and until and until < since:
            self.add_error("until", _("The end date is before the start date."))
        return cleaned


def filtered(form: AuditFilterForm) -> QuerySet[AuditEntry]:
    entries = AuditEntry.objects.all()
    if not form.is_valid():
        return entries.none()
    data = form.cleaned_data
    if data["person"]:
        entries = entries.filter(actor_name__iexact=data["person"].strip())
    if data["app"]:
        entries = entries.filter(app=data["app"])
    if data["action"]:
        entries = entries.filter(action__icontains=data["action"].strip())
    zone = timezone.get_current_timezone()
    if data["since"]:
        entries = entries.filter(at__gte=datetime.combine(data["since"], time.min, zone))
    if data["until"]:
        end = datetime.combine(data["until"] + timedelta(days=1), time.min, zone)
        entries = entries.filter(at__lt=end)
    return entries


@permission_required(VIEW_PERMISSION, raise_exception=True)
def audit_log(request: StaffRequest) -> HttpResponse:
    form = AuditFilterForm(request.GET or None)
    entries = filtered(form) if request.GET else AuditEntry.objects.all()
    page = Paginator(entries, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "backoffice/audit_log.html", {
        "form": form if request.GET else AuditFilterForm(), "page": page,
        "query": query.urlencode(),
    })


CSV_HEADER = ("when", "person", "address", "app", "action", "object type", "object",
              "summary", "outcome")


@permission_required(VIEW_PERMISSION, raise_exception=True)
def audit_csv(request: StaffRequest) -> HttpResponseBase:
    form = AuditFilterForm(request.GET)
    if not form.is_valid():
        return render(request, "backoffice/audit_log.html", {
            "form": form, "page": Paginator(AuditEntry.objects.none(), PAGE_SIZE).get_page(1),
            "query": "",
        }, status=400)
    rows = (
        (timezone.localtime(entry.at).isoformat(timespec="seconds"), entry.actor_name,
         entry.address or "", entry.app, entry.action, entry.object_type, entry.object_id,
         entry.summary, entry.outcome)
        for entry in filtered(form).iterator(chunk_size=2000)
    )
    response = StreamingHttpResponse(csv_lines(CSV_HEADER, rows),
                                     content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="audit-log.csv"'
    return response
