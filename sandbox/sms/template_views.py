"""`/api/templates` and `/api/templates/{id}`: create, list, edit (resubmit) and delete."""

from __future__ import annotations

from django.db import transaction
from django.http import HttpRequest, HttpResponse

from sandbox.core import clock
from sandbox.sms.api import body_fields, endpoint, ok, optional_text, required_text, template_id_of
from sandbox.sms.errors import SmsError
from sandbox.sms.lookups import find_template
from sandbox.sms.models import MessageType, ReportType, Template, TemplateStatus
from sandbox.sms.rules import utc_datetime
from sandbox.sms.serializers import template_json
from sandbox.sms.state import current_owner
from sandbox.sms.template_checks import check_caps, check_kind, check_text

CREATE_FIELDS = ("title", "content", "temp_sign", "sign_location", "type", "report_type")
EDITABLE_FIELDS = ("title", "content", "temp_sign", "sign_location")
FIXED_FIELDS = ("type", "report_type")


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
