"""The manual-confirmation queue and the operator's verdict."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from topup import services
from topup.forms import ManualConfirmForm
from topup.models import Order
from topup.views.access import CONFIRM, abilities, needs


@require_GET
@needs()
def manual_queue(request: HttpRequest) -> HttpResponse:
    return render(request, "topup/manual_queue.html", {
        "orders": services.manual_queue(), **abilities(request.user)})


@needs(CONFIRM)
def manual_confirm(request: HttpRequest, custno: str) -> HttpResponse:
    order = get_object_or_404(Order, custno=custno)
    form = ManualConfirmForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.confirm_manual(order.pk, form.cleaned_data["outcome"],
                                    form.cleaned_data["reason"], request.user)
        except services.OrderInputError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("Outcome of %(custno)s recorded.") % {
                "custno": order.custno})
            return redirect("topup:manual_queue")
    return render(request, "topup/manual_confirm.html", {"order": order, "form": form})
