"""Bulk top-up: upload a CSV, read the validation report, then confirm (or discard)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.humanize.templatetags.humanize import intcomma
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from backoffice.annotations import StaffRequest
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from topup import services
from topup.forms import BulkUploadForm
from topup.models import BatchStatus, BulkBatch
from topup.views.access import CHARGE, abilities, needs


@needs()
def bulk_index(request: StaffRequest) -> HttpResponse:
    form = BulkUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        if not request.user.has_perm(CHARGE):
            raise PermissionDenied
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                batch = services.check_upload(upload.name, upload.read(), request.user)
            except services.BulkFileError as error:
                form.add_error("file", str(error))
            else:
                return redirect("topup:bulk_detail", pk=batch.pk)
    batches = Paginator(BulkBatch.objects.select_related("uploaded_by"), 25).get_page(
        request.GET.get("page"))
    return render(request, "topup/bulk_index.html", {
        "form": form, "batches": batches, **abilities(request.user)})


@require_GET
@needs()
def bulk_detail(request: StaffRequest, pk: int) -> HttpResponse:
    batch = get_object_or_404(BulkBatch.objects.select_related("uploaded_by", "confirmed_by"),
                              pk=pk)
    results = services.batch_results(batch)
    return render(request, "topup/bulk_detail.html", {
        "batch": batch, "orders_count": sum(count for _s, _l, count in results.by_state),
        "results": results, **abilities(request.user)})


def _waiting(request: StaffRequest, batch: BulkBatch) -> bool:
    """Whether the batch can still be confirmed or discarded; says why not when it cannot."""
    if batch.status == BatchStatus.VALIDATED:
        return True
    messages.error(request, _("This batch was already confirmed or discarded."))
    return False


@require_http_methods(["GET", "POST"])
@needs(CHARGE)
def bulk_confirm(request: StaffRequest, pk: int) -> HttpResponse:
    batch = get_object_or_404(BulkBatch, pk=pk)
    if not _waiting(request, batch):
        return redirect("topup:bulk_detail", pk=batch.pk)
    if not confirmed(request):
        count = len(batch.rows)
        figures = {"count": intcomma(count), "total": batch.total_price, "id": batch.pk}
        return confirmation_page(request, Confirmation(
            question=ngettext(
                "Charge %(count)s top-up of batch #%(id)s, %(total)s yuan in all?",
                "Charge %(count)s top-ups of batch #%(id)s, %(total)s yuan in all?",
                count,
            ) % figures,
            consequences=[
                _("One order per valid row is placed and sent to the provider at once; rows "
                  "with problems are skipped."),
                _("This cannot be undone: a top-up sent to the provider is charged."),
            ],
            button=ngettext("Charge %(count)s top-up", "Charge %(count)s top-ups", count)
            % figures,
            back_url=reverse("topup:bulk_detail", args=[batch.pk]),
        ))
    try:
        placed = services.confirm_batch(batch.pk, request.user)
    except services.OrderInputError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, ngettext(
            "%(count)d order placed; it is being sent to the provider.",
            "%(count)d orders placed; they are being sent to the provider.", placed,
        ) % {"count": placed})
    return redirect("topup:bulk_detail", pk=batch.pk)


@require_http_methods(["GET", "POST"])
@needs(CHARGE)
def bulk_discard(request: StaffRequest, pk: int) -> HttpResponse:
    batch = get_object_or_404(BulkBatch, pk=pk)
    if not _waiting(request, batch):
        return redirect("topup:bulk_detail", pk=batch.pk)
    if not confirmed(request):
        count = len(batch.rows)
        figures = {"count": intcomma(count), "id": batch.pk}
        return confirmation_page(request, Confirmation(
            question=ngettext(
                "Discard batch #%(id)s and its %(count)s valid row?",
                "Discard batch #%(id)s and its %(count)s valid rows?",
                count,
            ) % figures,
            consequences=[
                _("Nothing is charged. The batch can no longer be confirmed: to top up these "
                  "numbers, upload the file again."),
            ],
            button=_("Discard the batch"),
            back_url=reverse("topup:bulk_detail", args=[batch.pk]),
        ))
    try:
        services.discard_batch(batch.pk)
    except services.OrderInputError as error:
        messages.error(request, error.message)
    else:
        messages.info(request, _("Batch discarded; nothing was charged."))
    return redirect("topup:bulk_detail", pk=batch.pk)
