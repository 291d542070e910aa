"""The manual-confirmation queue and the operator's verdict."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from backoffice.annotations import StaffRequest
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from backoffice.security.redirects import came_from
from topup import services
from topup.forms import ManualConfirmForm
from topup.models import Order, OrderState
from topup.views.access import CONFIRM, abilities, needs


@require_GET
@needs()
def manual_queue(request: StaffRequest) -> HttpResponse:
    return render(request, "topup/manual_queue.html", {
        "orders": services.manual_queue(), **abilities(request.user)})


@needs(CONFIRM)
def manual_confirm(request: StaffRequest, custno: str) -> HttpResponse:
    """The verdict is final, so a valid form is asked once more on the confirmation page
    (stating the order, the verdict and what follows); only its answer records it."""
    order = get_object_or_404(Order, custno=custno)
    form = ManualConfirmForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        outcome, reason = form.cleaned_data["outcome"], form.cleaned_data["reason"]
        if order.state != OrderState.MANUAL:
            # Settled meanwhile (a callback, a query): say so now rather than ask first.
            form.add_error("outcome", _(
                "This order is no longer waiting for confirmation; its state is now “%(state)s”."
            ) % {"state": order.get_state_display()})
        elif not confirmed(request):
            return confirmation_page(request, _verdict_question(request, order, outcome, reason))
        else:
            try:
                services.confirm_manual(order.pk, outcome, reason, request.user)
            except services.OrderInputError as error:
                form.add_error(error.field if error.field in form.fields else None,
                               error.message)
            else:
                messages.success(request, _("Outcome of %(custno)s recorded.") % {
                    "custno": order.custno})
                return redirect("topup:manual_queue")
    return render(request, "topup/manual_confirm.html", {"order": order, "form": form})


def _verdict_question(
    request: StaffRequest, order: Order, outcome: str, reason: str
) -> Confirmation:
    numbers = {"custno": order.custno, "price": order.price}
    if outcome == OrderState.SUCCESS:
        question = _("Record order %(custno)s as succeeded?") % numbers
        consequence = _(
            "The order becomes succeeded for good: it counts as a delivered top-up, its price "
            "(%(price)s yuan) counts as spent in the daily report, and it cannot be topped up "
            "again from here."
        ) % numbers
        button = _("Record: succeeded")
    else:
        question = _("Record order %(custno)s as failed?") % numbers
        consequence = _(
            "The order becomes failed for good: its price (%(price)s yuan) does not count as "
            "spent in the daily report, and “Top up again” can place a new order for the same "
            "number."
        ) % numbers
        button = _("Record: failed")
    return Confirmation(
        question=question,
        consequences=[
            consequence,
            _("Reason recorded with it: %(reason)s") % {"reason": reason},
            _("A verdict cannot be changed afterwards."),
        ],
        button=button,
        back_url=came_from(request, reverse("topup:manual_confirm", args=[order.custno])),
        fields={"outcome": outcome, "reason": reason},
        items=[_("%(product)s for %(mobile)s, %(price)s yuan") % {
            "product": order.prodcode, "mobile": order.mobile, "price": order.price}],
    )
