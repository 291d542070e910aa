"""`/api/messages`: POST sends (JSON or form-urlencoded body), GET is the delivery report."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from sandbox.sms.api import body_fields, endpoint, ok
from sandbox.sms.report import report
from sandbox.sms.sending import send


def send_messages(request: HttpRequest) -> HttpResponse:
    return ok({"message_ids": send(body_fields(request))})


def delivery_report(request: HttpRequest) -> HttpResponse:
    return ok(report(request.GET))


messages = endpoint({"POST": send_messages, "GET": delivery_report})
