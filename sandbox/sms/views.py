"""The SMS API's endpoints: `/api/templates` and `/api/templates/{id}` (create, list, edit
and resubmit, delete) and `/api/messages` (POST sends, GET is the delivery report).

Each endpoint answers its methods behind the token check, with the provider's errors as JSON.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse

from sandbox.core import clock
from sandbox.sms import call_rate
from sandbox.sms.auth import check_token
from sandbox.sms.errors import SmsError, error_response
from sandbox.sms.fields import body_fields, optional_text, required_text, template_id_of
from sandbox.sms.lookups import find_template
from sandbox.sms.models import MessageType, ReportType, Template, TemplateStatus
from sandbox.sms.owner_settings import current_owner, current_settings
from sandbox.sms.report import report
from sandbox.sms.rules import utc_datetime
from sandbox.sms.sending import send
from sandbox.sms.serializers import template_json
from sandbox.sms.template_checks import check_caps, check_kind, check_text

Handler = Callable[..., HttpResponse]
CREATE_FIELDS = ("title", "content", "temp_sign", "sign_location", "type", "report_type")
EDITABLE_FIELDS = ("title", "content", "temp_sign", "sign_location")
FIXED_FIELDS = ("type", "report_type")


def endpoint(handlers: dict[str, Handler]) -> Callable[..., HttpResponse]:
    """A view answering the given methods, each behind the token check, errors as JSON."""

    def view(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        handler = handlers.get(request.method or "")
        if handler is None:
            return error_response("NOT_FOUND", f"no such endpoint: {request.method} "
                                                f"{request.path}")
        try:
            check_token(request)
            return handler(request, **kwargs)
        except SmsError as error:
            return error_response(error.code, error.message)

    return view


def ok(document: dict[str, Any], status: int = 200) -> JsonResponse:
    return JsonResponse(document, status=status, json_dumps_params={"ensure_ascii": False})


# --- templates ------------------------------------------------------------------------------


def create_template(request: HttpRequest) -> HttpResponse:
    fields = body_fields(request)
    given = {name: required_text(fields, name) for name in CREATE_FIELDS}
    check_kind(given["type"], given["report_type"])
    check_text(given["title"], given["temp_sign"], given["content"], given["sign_location"])
    now = clock.now()
    with transaction.atomic():
        check_caps(given["report_type"], given["temp_sign"])
        template = Template.objects.create(**given, status=TemplateStatus.REVIEW,
                                           updated_at=utc_datetime(now), submitted_ts=now)
    return ok(template_json(template, current_owner()), status=201)


def list_templates(request: HttpRequest) -> HttpResponse:
    templates = Template.objects.all()
    filters = (("status", TemplateStatus.values, "ILLEGAL_PARAMER"),
               ("type", MessageType.values, "ILLEGAL_PARAMER"),
               ("report_type", ReportType.values, "ILLEGAL_REPORT_TYPE"))
    for name, allowed, code in filters:
        value = request.GET.get(name)
        if not value:
            continue
        if value not in allowed:
            raise SmsError(code, f"{name} {value!r} is not one of {', '.join(allowed)}")
        templates = templates.filter(**{name: value})
    owner = current_owner()
    return ok({"templates": [template_json(template, owner) for template in templates]})


def edit_template(request: HttpRequest, template_id: str) -> HttpResponse:
    """Apply the edit and resubmit: whatever the status was, the template is under review
    again and unusable until approved. An empty edit resubmits the template unchanged, which
    is how a `defeat` template is sent back to review."""
    number = template_id_of(template_id)
    fields = body_fields(request)
    changes = {name: value for name in EDITABLE_FIELDS
               if (value := optional_text(fields, name)) is not None}
    now = clock.now()
    with transaction.atomic():
        template = find_template(number)
        for name in FIXED_FIELDS:
            value = fields.get(name)
            if value is not None and value != getattr(template, name):
                raise SmsError("ILLEGAL_PARAMER", f"{name} is fixed when a template is "
                                                  f"created; create a new template instead")
        for name, value in changes.items():
            setattr(template, name, value)
        check_text(template.title, template.temp_sign, template.content, template.sign_location)
        check_caps(template.report_type, template.temp_sign, editing=template)
        template.status = TemplateStatus.REVIEW
        template.submitted_ts = now
        template.updated_at = utc_datetime(now)
        template.save()
    return ok(template_json(template, current_owner()))


def delete_template(request: HttpRequest, template_id: str) -> HttpResponse:
    number = template_id_of(template_id)
    with transaction.atomic():
        find_template(number).delete()
    return HttpResponse(status=204)


templates = endpoint({"POST": create_template, "GET": list_templates})
template_detail = endpoint({"PATCH": edit_template, "DELETE": delete_template})


# --- messages -------------------------------------------------------------------------------


def send_messages(request: HttpRequest) -> HttpResponse:
    settings = current_settings()
    wait_s = call_rate.admit(settings.calls_per_second)
    if wait_s is not None:
        response = error_response("TOO_MANY_REQUESTS", "more sending calls a second than the "
                                                       "account's limit")
        response["Retry-After"] = call_rate.retry_after_header(wait_s)
        return response
    if settings.send_latency_s:
        time.sleep(settings.send_latency_s)  # the provider's answer time (wall clock)
    return ok({"message_ids": send(body_fields(request))})


def delivery_report(request: HttpRequest) -> HttpResponse:
    return ok(report(request.GET))


messages = endpoint({"POST": send_messages, "GET": delivery_report})
