"""Bulk top-up: upload a CSV, read the validation report, then confirm (or discard)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from topup import services
from topup.forms import BulkUploadForm
from topup.models import BulkBatch
from topup.views.access import CHARGE, abilities, needs


@needs()
def bulk_index(request: HttpRequest) -> HttpResponse:
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
def bulk_detail(request: HttpRequest, pk: int) -> HttpResponse:
    batch = get_object_or_404(BulkBatch.objects.select_related("uploaded_by", "confirmed_by"),
                              pk=pk)
    results = services.batch_results(batch)
    return render(request, "topup/bulk_detail.html", {
        "batch": batch, "orders_count": sum(count for _s, _l, count in results.by_state),
        "results": results, **abilities(request.user)})


@require_POST
@needs(CHARGE)
def bulk_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    batch = get_object_or_404(BulkBatch, pk=pk)
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


@require_POST
@needs(CHARGE)
def bulk_discard(request: HttpRequest, pk: int) -> HttpResponse:
    batch = get_object_or_404(BulkBatch, pk=pk)
    try:
        services.discard_batch(batch.pk)
    except services.OrderInputError as error:
        messages.error(request, error.message)
    else:
        messages.info(request, _("Batch discarded; nothing was charged."))
    return redirect("topup:bulk_detail", pk=batch.pk)
