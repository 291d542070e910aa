"""Orders: the list with filters, one order with its timeline, the single top-up form."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.contrib import messages
from django.db.models import (
    BigIntegerField,
    DateTimeField,
    ExpressionWrapper,
    F,
    Q,
    QuerySet,
    Value,
)
from django.http import (
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from backoffice.annotations import StaffRequest
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from topup import services, texts
from topup.forms import ManualConfirmForm, OrderFilterForm, SingleTopupForm
from topup.models import CARRIER_CHOICES, Order, OrderSource, OrderState, Product
from topup.services import TopupError
from topup.views.access import CHANGE_ORDER, CHARGE, abilities, needs
from topup.views.paging import CappedPaginator

PAGE_SIZE = 50
MOBILE_LENGTH = 11
CUSTNO_SEARCH_MIN_LENGTH = 14  # YYYYMMDDhhmmss: the orders of one second at most
# A search matches few orders, found through the trigram indexes (migration 0003); sorted on
# the plain columns PostgreSQL would instead walk the created_at index newest first looking
# for them, through the whole table when the match is old. The same order, written so that
# no index serves it.
_UNINDEXED_NEWEST_FIRST = (
    ExpressionWrapper(F("created_at") + Value(timedelta(0)), output_field=DateTimeField()).desc(),
    ExpressionWrapper(F("id") + 0, output_field=BigIntegerField()).desc(),
)


def filtered_orders(form: OrderFilterForm) -> QuerySet[Order]:
    orders = Order.objects.select_related("product", "requested_by")
    if not form.is_bound:
        return orders
    if not form.is_valid():
        # A filter that cannot be applied lists nothing: every order would look filtered.
        return orders.none()
    data = form.cleaned_data
    if data["q"]:
        orders = orders.filter(search_terms(data["q"].strip())).order_by(
            *_UNINDEXED_NEWEST_FIRST)
    for name in ("state", "carrier", "source"):
        if data[name]:
            orders = orders.filter(**{name: data[name]})
    if data["product"]:
        orders = orders.filter(product=data["product"])
    if data["batch"]:
        orders = orders.filter(batch_id=data["batch"])
    if data["date_from"]:
        orders = orders.filter(created_at__gte=_day_start(data["date_from"]))
    if data["date_to"]:
        orders = orders.filter(created_at__lt=_day_start(data["date_to"]) + timedelta(days=1))
    return orders


def search_terms(term: str) -> Q:
    """What "mobile or order number" matches: a mobile number containing the term (digits, at
    most a mobile's length), an order number of ours starting with it (from
    CUSTNO_SEARCH_MIN_LENGTH characters on), a provider order number containing it.

    Our order numbers begin with the time they were made (`rules.new_custno`), so every one
    shares its first trigrams with millions of others: searching inside them read most of the
    trigram index (0.9 s cold at 5M orders). Matched from their start they are read from the
    unique index's pattern copy; shorter prefixes name a day or an hour, which the date filter
    says better, and would select whole days of orders.
    """
    match = Q(orderno__icontains=term)
    if term.isdigit() and len(term) <= MOBILE_LENGTH:
        match |= Q(mobile__contains=term)
    if len(term) >= CUSTNO_SEARCH_MIN_LENGTH:
        match |= Q(custno__startswith=term.lower())  # ours are digits and lower-case hex
    return match


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


@require_GET
@needs()
def order_list(request: StaffRequest) -> HttpResponse:
    form = OrderFilterForm(request.GET or None)
    page = CappedPaginator(filtered_orders(form), PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "topup/order_list.html", {
        "form": form, "page": page, "query": query.urlencode(), **abilities(request.user)})


@require_GET
@needs()
def order_csv(request: StaffRequest) -> HttpResponseBase:
    """The orders the list's filters select, as CSV (bad filters: the list names them)."""
    form = OrderFilterForm(request.GET or None)
    if request.GET and not form.is_valid():
        return order_list(request)
    orders = filtered_orders(form).order_by("-created_at", "-id")
    response = StreamingHttpResponse(
        (line.encode() for line in services.order_csv_lines(orders)),
        content_type="text/csv; charset=utf-8")
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M%S")
    response["Content-Disposition"] = f'attachment; filename="topup-orders-{stamp}.csv"'
    return response


@require_GET
@needs()
def order_detail(request: StaffRequest, custno: str) -> HttpResponse:
    order = get_object_or_404(Order.objects.select_related("product", "requested_by", "batch"),
                              custno=custno)
    events = order.events.select_related("actor", "receipt")
    return render(request, "topup/order_detail.html", {
        "order": order, "events": events, "receipts": order.receipts.all(),
        "confirm_form": ManualConfirmForm(),
        "again_as": services.topped_up_again_as(order) if order.state == OrderState.FAILED
        else "",
        **abilities(request.user)})


@needs(CHARGE)
def order_again(request: StaffRequest, custno: str) -> HttpResponse:
    """Top up a failed order again: GET says what will happen, POST places the new order."""
    order = get_object_or_404(Order.objects.select_related("product"), custno=custno)
    if request.method == "POST":
        try:
            placed, new = services.top_up_again(order.pk, requested_by=request.user)
        except services.OrderInputError as error:
            messages.error(request, error.message)
            return redirect("topup:order_detail", custno=custno)
        if new:
            messages.success(request, _("Order %(custno)s placed to top up %(mobile)s again; "
                                        "it is being sent to the provider.") % {
                                            "custno": placed.custno, "mobile": placed.mobile})
        else:
            messages.info(request, _("Order %(old)s was already topped up again: this is "
                                     "that order.") % {"old": custno})
        return redirect("topup:order_detail", custno=placed.custno)
    again_as = services.topped_up_again_as(order)
    if order.state != OrderState.FAILED or again_as:
        # Nothing to confirm: the order page says why (its state, or the order placed).
        return redirect("topup:order_detail", custno=again_as or custno)
    return render(request, "topup/order_again.html", {"order": order})


@needs(CHARGE)
def order_new(request: StaffRequest) -> HttpResponse:
    form = SingleTopupForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and not confirmed(request):
        try:
            checked = services.check_request(form.cleaned_data["order_request"])
        except services.OrderInputError as error:  # the form checked it: a race at most
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            return confirmation_page(request, _single_top_up_question(request, checked))
    elif request.method == "POST" and form.is_valid():
        try:
            order = services.place_order(form.cleaned_data["order_request"],
                                         requested_by=request.user, source=OrderSource.SINGLE)
        except services.OrderInputError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("Order %(custno)s placed; it is being sent to the "
                                        "provider.") % {"custno": order.custno})
            return redirect("topup:order_detail", custno=order.custno)
    return render(request, "topup/order_form.html", {
        "form": form,
        "product_carriers": {str(p.pk): p.carrier for p in Product.objects.filter(active=True)},
        "carrier_texts": {
            **{code: str(label) for code, label in CARRIER_CHOICES},
            "detected": _("Carrier: %(carrier)s. Only its products are listed."),
            "undetected": _("Carrier not recognised from the number range: every product is "
                            "listed."),
        },
    })


def _single_top_up_question(request: StaffRequest,
                            checked: services.CheckedRequest) -> Confirmation:
    """The question every money action asks first: here the number, its carrier, the product
    and the price, as the order will be sent."""
    product = checked.product
    figures = {
        "mobile": checked.mobile, "carrier": dict(CARRIER_CHOICES).get(checked.carrier,
                                                                       checked.carrier),
        "product": product.code, "size": product.size_mb, "price": product.price,
    }
    return Confirmation(
        question=_("Top up %(mobile)s (%(carrier)s) with %(product)s (%(size)s MB) for "
                   "%(price)s yuan?") % figures,
        consequences=[
            _("The order is sent to the provider at once, and its price is taken from the "
              "merchant's balance."),
            _("This cannot be undone: a top-up sent to the provider is charged."),
        ],
        button=_("Top up for %(price)s yuan") % figures,
        back_url=reverse("topup:order_new"),
        fields={name: request.POST.getlist(name) for name in SingleTopupForm.base_fields
                if name in request.POST},
        back_restores=True,
    )


@require_GET
@needs(CHARGE)
def carrier_lookup(request: StaffRequest) -> JsonResponse:
    """For the single top-up form: the number's carrier and the products on sale for it."""
    try:
        mobile, carrier = services.check_mobile(request.GET.get("mobile", ""))
    except services.OrderInputError as error:
        return JsonResponse({"error": error.message, "field": error.field}, status=400)
    products = Product.objects.filter(active=True)
    if carrier:
        products = products.filter(carrier=carrier)
    return JsonResponse({
        "mobile": mobile, "carrier": carrier,
        "products": [{"id": p.pk, "code": p.code} for p in products],
    })


@require_POST
@needs(CHANGE_ORDER)
def order_check(request: StaffRequest, custno: str) -> HttpResponse:
    """Ask the provider about this order now (staff do not wait for the next beat run)."""
    order = get_object_or_404(Order, custno=custno)
    try:
        state = services.check_order(order.pk)
    except (TopupError, ProviderNotConfigured) as error:
        messages.error(request, texts.provider_error_text(error))
    else:
        order.state = state
        messages.info(request, _("The state of order %(custno)s is now “%(state)s”.") % {
            "custno": custno, "state": order.get_state_display()})
    return redirect("topup:order_detail", custno=custno)
