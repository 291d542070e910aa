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
from backoffice.security.audit_words import app_label, words
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
        app_field.choices = [("", _("Any app")), *((a, app_label(a)) for a in apps)]

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
        "rows": [words(entry) for entry in page], "query": query.urlencode(),
    })


def csv_header() -> tuple[str, ...]:
    """The page's column headings, then the action's code and the text as recorded (the
    evidence the hash chain covers), for whoever checks an entry against the chain."""
    return (_("When"), _("Person"), _("Address"), _("App"), _("Action"), _("Object"),
            _("Summary"), _("Outcome"), _("Action code"), _("Recorded details"))


@permission_required(VIEW_PERMISSION, raise_exception=True)
def audit_csv(request: StaffRequest) -> HttpResponseBase:
    form = AuditFilterForm(request.GET)
    if not form.is_valid():
        return render(request, "backoffice/audit_log.html", {
            "form": form, "page": Paginator(AuditEntry.objects.none(), PAGE_SIZE).get_page(1),
            "rows": [], "query": "",
        }, status=400)
    rows = (
        (timezone.localtime(said.entry.at).isoformat(timespec="seconds"),
         said.entry.actor_name, said.entry.address or "", said.app, said.action, said.object,
         said.summary, said.outcome, said.entry.action, said.entry.summary)
        for said in map(words, filtered(form).iterator(chunk_size=2000))
    )
    response = StreamingHttpResponse(csv_lines(csv_header(), rows),
                                     content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="audit-log.csv"'
    return response
