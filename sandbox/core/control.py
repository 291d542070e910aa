"""The control API: health, the clock, fault injection and reset (JSON, control port)."""

from __future__ import annotations

from django.apps import apps
from django.db import transaction
from django.db.models import Model
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from sandbox.core import clock, events
from sandbox.core.account import ensure_account
from sandbox.core.faults import fault_from_request
from sandbox.core.jsonapi import FieldError, json_body, number
from sandbox.core.models import Account, ClockState, Fault

KEPT_ON_RESET = (Account, ClockState)


def health(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})


@require_http_methods(["GET"])
def clock_now(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"now": clock.now()})


@csrf_exempt
@require_http_methods(["POST"])
def clock_advance(request: HttpRequest) -> JsonResponse:
    try:
        seconds = number(json_body(request), "seconds", required=True, minimum=0)
    except FieldError as error:
        return error.response()
    clock.advance(seconds)
    now = events.run_due(clock.now)  # what fell due in the skipped time happens before we answer
    return JsonResponse({"now": now})


@csrf_exempt
@require_http_methods(["GET", "POST", "DELETE"])
def faults(request: HttpRequest) -> JsonResponse:
    if request.method == "GET":
        return JsonResponse({"faults": [fault.as_dict() for fault in Fault.objects.all()]})
    if request.method == "DELETE":
        deleted, _ = Fault.objects.all().delete()
        return JsonResponse({"deleted": deleted})
    try:
        fault = fault_from_request(json_body(request))
    except FieldError as error:
        return error.response()
    fault.save()
    return JsonResponse(fault.as_dict(), status=201)


@csrf_exempt
@require_http_methods(["POST"])
def reset(request: HttpRequest) -> JsonResponse:
    reset_sandbox()
    return JsonResponse({"ok": True, "now": clock.now()})


def kept_on_reset(model: type[Model]) -> bool:
    """The account, the clock row, and what another app marks `kept_on_reset` (the console's
    tokens, obtained with the account's unchanged login)."""
    return model in KEPT_ON_RESET or bool(getattr(model, "kept_on_reset", False))


def reset_sandbox() -> None:
    """A fresh demo account: every service's data, settings and faults gone, real time back.

    No tick runs meanwhile, so none can apply the old clock to the fresh account.
    """
    with events.exclusive():
        with transaction.atomic():
            for model in apps.get_models():
                if model._meta.app_label.startswith("sandbox_") and not kept_on_reset(model):
                    model._default_manager.all().delete()
            ensure_account()
            clock.reset()
        events.run_reset_handlers()
