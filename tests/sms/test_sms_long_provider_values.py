"""Values the provider sends that we keep verbatim (a message status we do not know, a
per-number error code, a template's status) are stored whatever their length: up to the
column width as they are, beyond it cut and logged, never a database error (PostgreSQL
enforces the width; SQLite does not, so both are checked by the stored value)."""

from __future__ import annotations

import logging

import pytest
from django.utils import timezone

from sms import services
from sms.models import Message, MessageStatus, Template
from sms.verbatim import PROVIDER_CODE_LENGTH
from tests.sms.conftest import sandbox_settings

pytestmark = pytest.mark.django_db

MEDIUM = "CARRIER_" + "X" * 52  # 60 characters: wider than the columns used to be
LONG = "CARRIER_" + "Y" * 192  # 200 characters: wider than any column


def answer_next(sandbox, method: str, path: str, body: dict) -> None:
    sandbox.add_fault(
        service="sms", path=path, method=method, action="status", status=200, body=body, times=1
    )


@pytest.mark.parametrize(
    ("code", "stored"), [(MEDIUM, MEDIUM), (LONG, LONG[:PROVIDER_CODE_LENGTH])]
)
def test_a_long_per_number_error_code_is_stored(provider, sms_template, caplog, code, stored):
    template = sms_template()
    answer_next(
        provider,
        "POST",
        "^/api/messages$",
        {"message_ids": [{"error_code": code, "mobile": "13800138000"}]},
    )
    good = services.preview_recipients(template, "13800138000", ["1"]).good

    with caplog.at_level(logging.WARNING, logger="sms"):
        campaign = services.send_recipients(template, good)

    message = campaign.messages.get()
    assert (message.status, message.error_code) == (MessageStatus.REJECTED, stored)
    assert (code != stored) == ("longer than" in caplog.text)


def report_record(message: Message, template: Template, status: str) -> dict[str, object]:
    assert message.submitted_at is not None
    return {
        "id": message.provider_message_id,
        "template_id": template.provider_id,
        "report_type": "general",
        "title": template.title,
        "type": "industry",
        "content": message.text,
        "temp_sign": template.temp_sign,
        "mobile": message.mobile,
        "sent_at": timezone.now().isoformat(),
        "created_at": message.submitted_at.isoformat(),
        "status": status,
        "quantity": 1,
        "owner": None,
    }


@pytest.mark.parametrize(
    ("status", "stored"), [(MEDIUM, MEDIUM), (LONG, LONG[:PROVIDER_CODE_LENGTH])]
)
def test_a_long_unknown_message_status_is_stored(provider, sms_template, status, stored):
    sandbox_settings(provider, delivery_delay_s=300)
    template = sms_template()
    good = services.preview_recipients(template, "13800138000", ["1"]).good
    message = services.send_recipients(template, good).messages.get()
    answer_next(
        provider,
        "GET",
        "^/api/messages",
        {"messages": [report_record(message, template, status)], "total": 1},
    )

    services.sync_reports()

    message.refresh_from_db()
    assert message.status == stored and not message.status_known


def test_a_long_template_status_is_stored(provider, sms_template):
    template = sms_template()
    listed = {
        "templates": [
            {
                "id": template.provider_id,
                "title": template.title,
                "temp_sign": template.temp_sign,
                "content": template.content,
                "sign_location": template.sign_location,
                "type": template.type,
                "report_type": template.report_type,
                "status": LONG,
                "updated_at": timezone.now().isoformat(),
            }
        ]
    }
    answer_next(provider, "GET", "^/api/templates", listed)

    services.sync_templates()

    template.refresh_from_db()
    assert template.status == LONG[:PROVIDER_CODE_LENGTH]
