"""Control endpoints of the top-up emulator (control port, under /topup/): settings, outcome
rules for tests, and the orders and callback calls as the emulator sees them."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from sandbox.core import clock
from sandbox.core.jsonapi import FieldError, choice, json_body
from sandbox.topup import config, control_input, progress, wallet
from sandbox.topup.models import CallbackAttempt, Order, Rule, TopupSettings
from sandbox.topup.money import yuan_number


def settings_dict() -> dict[str, Any]:
    current, money = config.settings(), config.wallet()
    return {
        "callback_url": current.callback_url, "balance": yuan_number(money.balance_fen),
        "freeze": yuan_number(money.freeze_fen), "availBalance": yuan_number(money.available_fen),
        "failure_rate": current.failure_rate, "progress_delay_s": current.progress_delay_s,
        "whitelist": current.whitelist,
    }


@csrf_exempt
@require_http_methods(["GET", "POST"])
def settings_view(request: HttpRequest) -> JsonResponse:
    if request.method == "POST":
        try:
            apply_settings(control_input.settings_changes(json_body(request)))
        except FieldError as error:
            return error.response()
    return JsonResponse(settings_dict())


def apply_settings(changes: dict[str, Any]) -> None:
    """All or nothing: a refused balance leaves the other settings unchanged too."""
    balance_fen = changes.pop("balance_fen", None)
    with transaction.atomic():
        config.settings()
        if changes:
            TopupSettings.objects.filter(pk=1).update(**changes)
        if balance_fen is not None and not wallet.set_balance(balance_fen):
            frozen = yuan_number(config.wallet().freeze_fen)
            raise FieldError("balance", f"must be at least the frozen amount {frozen}")


@csrf_exempt
@require_http_methods(["GET", "POST", "DELETE"])
def rules_view(request: HttpRequest) -> JsonResponse:
    if request.method == "DELETE":
        deleted, _ = Rule.objects.all().delete()
        return JsonResponse({"deleted": deleted})
    if request.method == "GET":
        return JsonResponse({"rules": [rule.as_dict() for rule in Rule.objects.all()]})
    try:
        rule = control_input.rule_from(json_body(request))
    except FieldError as error:
        return error.response()
    with transaction.atomic():  # one rule per number: a new one replaces the old
        Rule.objects.filter(mobile=rule.mobile).delete()
        rule.save()
    return JsonResponse(rule.as_dict(), status=201)


def order_dict(order: Order) -> dict[str, Any]:
    attempts = CallbackAttempt.objects.filter(delivery__order=order).select_related(
        "delivery__order")
    return {**order.as_dict(), "callbacks": [attempt.as_dict() for attempt in attempts]}


@require_http_methods(["GET"])
def orders_view(request: HttpRequest) -> JsonResponse:
    """Every order (or `?custno=`), oldest first, with the callback calls made for it."""
    progress.settle_due(clock.now())
    orders = Order.objects.all()
    if "custno" in request.GET:
        orders = orders.filter(custno=request.GET["custno"])
    return JsonResponse({"orders": [order_dict(order) for order in orders]})


@csrf_exempt
@require_http_methods(["POST"])
def resolve_view(request: HttpRequest, custno: str) -> JsonResponse:
    """Confirm a 511 order by hand: `{"outcome": "success"|"fail"}`."""
    try:
        outcome = choice(json_body(request), "outcome", ("success", "fail"), required=True)
    except FieldError as error:
        return error.response()
    try:
        order = progress.resolve_manual(custno, outcome == "success", clock.now())
    except LookupError as error:
        return JsonResponse({"error": str(error)}, status=404)
    except progress.NotAwaitingConfirmation as error:
        return JsonResponse({"error": str(error)}, status=409)
    return JsonResponse(order_dict(order))


@require_http_methods(["GET"])
def callbacks_view(request: HttpRequest) -> JsonResponse:
    """Every callback call made (or those for `?custno=`), in the order they were made."""
    attempts = CallbackAttempt.objects.select_related("delivery__order")
    if "custno" in request.GET:
        attempts = attempts.filter(delivery__order__custno=request.GET["custno"])
    return JsonResponse({"callbacks": [attempt.as_dict() for attempt in attempts]})
