"""Control API of the SMS emulator (control port, under /sms/): behaviour settings and quotas,
the administrator's template review, and forced per-number delivery outcomes."""

from __future__ import annotations

import math
from typing import Any

from django.db import transaction
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from sandbox.core.json_types import JSONObject
from sandbox.core.jsonapi import FieldError, choice, json_body, number
from sandbox.sms.models import (
    FiledSignature,
    MessageStatus,
    OutcomeRule,
    Owner,
    SensitiveWord,
    SmsSettings,
    Template,
)
from sandbox.sms.owner_settings import (
    current_owner,
    current_settings,
    stored_owner,
    stored_settings,
)
from sandbox.sms.review import DECISIONS, REVIEW_CLOCKS, NotUnderReview, decide
from sandbox.sms.rules import national_mobile
from sandbox.sms.serializers import template_json

MAX_DELAY_S = 30 * 86_400
MAX_QUOTA = 1_000_000_000
MAX_CALLS_PER_SECOND = 100_000
MAX_LATENCY_S = 10.0
SETTINGS_FIELDS = ("auto_review", "review_delay_s", "review_clock", "delivery_delay_s",
                   "failure_rate", "calls_per_second", "send_latency_s", "general", "vip")
OUTCOMES = (MessageStatus.SUCCESS.value, MessageStatus.FAILED.value)


def settings_json(settings: SmsSettings, owner: Owner) -> JSONObject:
    return {"auto_review": settings.auto_review, "review_delay_s": settings.review_delay_s,
            "review_clock": settings.review_clock,
            "delivery_delay_s": settings.delivery_delay_s,
            "failure_rate": settings.failure_rate, "calls_per_second": settings.calls_per_second,
            "send_latency_s": settings.send_latency_s,
            "general": owner.general, "vip": owner.vip}


def finite(body: JSONObject, name: str, **limits: Any) -> Any:
    """jsonapi.number, refusing NaN and infinities (JSON parsers accept them)."""
    value = number(body, name, **limits)
    if value is not None and not math.isfinite(value):
        raise FieldError(name, "must be a finite number")
    return value


def settings_changes(body: JSONObject) -> JSONObject:
    unknown = sorted(set(body) - set(SETTINGS_FIELDS))
    if unknown:
        raise FieldError(unknown[0], f"is not an SMS setting ({', '.join(SETTINGS_FIELDS)})")
    if "auto_review" in body and not isinstance(body["auto_review"], bool):
        raise FieldError("auto_review", "must be true or false")
    changes = {
        "auto_review": body.get("auto_review"),
        "review_delay_s": finite(body, "review_delay_s", minimum=0, maximum=MAX_DELAY_S),
        "review_clock": choice(body, "review_clock", REVIEW_CLOCKS),
        "delivery_delay_s": finite(body, "delivery_delay_s", minimum=0, maximum=MAX_DELAY_S),
        "failure_rate": finite(body, "failure_rate", minimum=0, maximum=1),
        "calls_per_second": number(body, "calls_per_second", integer=True, minimum=0,
                                   maximum=MAX_CALLS_PER_SECOND),
        "send_latency_s": finite(body, "send_latency_s", minimum=0, maximum=MAX_LATENCY_S),
        "general": number(body, "general", integer=True, minimum=0, maximum=MAX_QUOTA),
        "vip": number(body, "vip", integer=True, minimum=0, maximum=MAX_QUOTA),
    }
    return {name: value for name, value in changes.items() if value is not None}


@csrf_exempt
@require_http_methods(["GET", "POST"])
def settings_view(request: HttpRequest) -> JsonResponse:
    """GET answers the settings; POST changes the fields it names and answers them all."""
    if request.method == "POST":
        try:
            changes = settings_changes(json_body(request))
        except FieldError as error:
            return error.response()
        with transaction.atomic():
            settings, owner = stored_settings(), stored_owner()
            for name, value in changes.items():
                setattr(owner if name in ("general", "vip") else settings, name, value)
            settings.save()
            owner.save()
    return JsonResponse(settings_json(current_settings(), current_owner()))


@csrf_exempt
@require_http_methods(["POST"])
def review(request: HttpRequest, template_id: int) -> JsonResponse:
    try:
        status = choice(json_body(request), "status", tuple(DECISIONS), required=True)
    except FieldError as error:
        return error.response()
    assert status is not None
    try:
        template = decide(template_id, status)
    except Template.DoesNotExist:
        return JsonResponse({"error": f"no SMS template {template_id}"}, status=404)
    except NotUnderReview as error:
        return JsonResponse({"error": str(error)}, status=409)
    return JsonResponse(template_json(template, current_owner()),
                        json_dumps_params={"ensure_ascii": False})


@csrf_exempt
@require_http_methods(["GET", "POST", "DELETE"])
def outcomes(request: HttpRequest) -> JsonResponse:
    """Forced carrier answers per number: POST adds or replaces one, DELETE removes all."""
    if request.method == "GET":
        rules = OutcomeRule.objects.all()
        return JsonResponse({"outcomes": [{"mobile": rule.mobile, "status": rule.status}
                                          for rule in rules]})
    if request.method == "DELETE":
        deleted, _ = OutcomeRule.objects.all().delete()
        return JsonResponse({"deleted": deleted})
    try:
        body = json_body(request)
        mobile_entry = body.get("mobile")
        mobile = national_mobile(mobile_entry) if isinstance(mobile_entry, str) else None
        if mobile is None:
            raise FieldError("mobile", "must be a mainland mobile number, e.g. 13800138000")
        status = choice(body, "status", OUTCOMES, required=True)
    except FieldError as error:
        return error.response()
    OutcomeRule.objects.update_or_create(mobile=mobile, defaults={"status": status})
    return JsonResponse({"mobile": mobile, "status": status}, status=201)


@csrf_exempt
@require_http_methods(["GET", "POST"])
def signatures(request: HttpRequest) -> JsonResponse:
    """The filed signatures: GET lists them; POST `{"temp_sign": "..."}` files one (filing
    twice is harmless). A filed signature's general-channel templates are reviewed in hours
    under the working-days review clock."""
    if request.method == "POST":
        try:
            body = json_body(request)
            sign = body.get("temp_sign")
            if not isinstance(sign, str) or not sign.strip():
                raise FieldError("temp_sign", "must be a non-empty string")
        except FieldError as error:
            return error.response()
        FiledSignature.objects.get_or_create(temp_sign=sign.strip())
    return JsonResponse({"signatures": list(
        FiledSignature.objects.order_by("temp_sign").values_list("temp_sign", flat=True))})


@csrf_exempt
@require_http_methods(["GET", "POST"])
def words(request: HttpRequest) -> JsonResponse:
    """The provider's list of words it refuses: GET lists it; POST `{"words": [...]}` replaces
    it (an empty list clears it). A template or a message's variables holding one is refused
    with 409 ILLEGAL_PARAMER naming the word."""
    if request.method == "POST":
        try:
            body = json_body(request)
            given = body.get("words")
            listed = [word.strip() for word in given if isinstance(word, str)] if isinstance(
                given, list) else []
            if (not isinstance(given, list) or len(listed) != len(given)
                    or not all(0 < len(word) <= 64 for word in listed)):
                raise FieldError("words", "must be a list of non-empty strings of at most 64 "
                                          "characters")
        except FieldError as error:
            return error.response()
        with transaction.atomic():
            SensitiveWord.objects.all().delete()
            SensitiveWord.objects.bulk_create(
                [SensitiveWord(word=word) for word in sorted(set(listed))])
    return JsonResponse({"words": list(
        SensitiveWord.objects.order_by("word").values_list("word", flat=True))})
