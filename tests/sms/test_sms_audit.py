"""SMS use cases write the audit log: template create, edit and delete; a campaign action
refused by its state is recorded as failed."""

from __future__ import annotations

import dataclasses

import pytest

from backoffice.models import AuditEntry
from backoffice.security import audit
from sms import services
from sms.models import Campaign

pytestmark = pytest.mark.django_db


def sms_entries() -> list[tuple[str, str]]:
    return list(AuditEntry.objects.filter(app="sms").order_by("pk")
                .values_list("action", "outcome"))


def test_template_create_edit_and_delete_are_recorded_with_the_person(sms_template, operator):
    with audit.acting(operator, "192.0.2.1"):
        template = sms_template(status=None)
        draft = dataclasses.replace(services.draft_of(template), title="新标题")
        services.edit_template(template, draft)
        services.delete_template(template)
    assert sms_entries() == [("template.create", "ok"), ("template.edit", "ok"),
                             ("template.delete", "ok")]
    created = AuditEntry.objects.filter(app="sms").first()
    assert created is not None
    assert (created.actor, created.address, created.object_id) == (
        operator, "192.0.2.1", str(template.pk))


def test_resuming_a_campaign_that_is_not_halted_is_recorded_as_failed(sms_template, operator):
    template = sms_template()
    campaign = Campaign.objects.create(template=template, source="form")
    with pytest.raises(services.CampaignStateError):
        services.resume_campaign(campaign)
    assert sms_entries()[-1] == ("campaign.resume", "failed")
