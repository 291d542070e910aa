"""JSON shapes of the SMS API: Template, Message (report record) and their `owner` object."""

from __future__ import annotations

from sandbox.core.json_types import JSONObject
from sandbox.sms.models import Message, Owner, Template
from sandbox.sms.rules import iso_millis


def owner_json(owner: Owner) -> JSONObject:
    return {"id": owner.pk, "name": owner.name, "general": owner.general, "vip": owner.vip,
            "industry": owner.industry, "marketing": owner.marketing}


def template_json(template: Template, owner: Owner) -> JSONObject:
    return {
        "id": template.pk, "title": template.title, "temp_sign": template.temp_sign,
        "content": template.content, "sign_location": template.sign_location,
        "type": template.type, "report_type": template.report_type, "status": template.status,
        "updated_at": iso_millis(template.updated_at), "owner": owner_json(owner),
    }


def message_json(message: Message, owner: Owner) -> JSONObject:
    return {
        "id": message.pk, "template_id": message.template_id,
        "report_type": message.report_type, "title": message.title, "type": message.type,
        "content": message.content, "temp_sign": message.temp_sign, "mobile": message.mobile,
        "sent_at": iso_millis(message.sent_at), "created_at": iso_millis(message.created_at),
        "status": message.status, "quantity": message.quantity, "owner": owner_json(owner),
    }
