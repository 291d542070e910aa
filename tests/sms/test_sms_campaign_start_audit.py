"""Every way a campaign starts is audited: "Send now" on the send page (with the quiet-hours
override, when lifted, recorded as on the campaign page), the command line, a scheduled start
by beat, and a waiting campaign going on when the sending window opens."""

from __future__ import annotations

import pytest
import time_machine
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.test import Client

from backoffice.models import AuditEntry
from sms import services
from sms.models import Campaign, CampaignState
from tests.sms.conftest import send_from_page
from tests.sms.test_sms_quiet_hours import draft_of, shanghai_today

pytestmark = pytest.mark.django_db


def test_send_now_on_the_send_page_is_audited(operator_client, operator, provider, sms_template):
    template = sms_template()
    send_from_page(operator_client, {"template": template.pk, "recipients": "13800138000",
                                     "var1": "123456"})
    campaign = Campaign.objects.get()
    entry = AuditEntry.objects.get(action="campaign.confirm")
    assert (entry.actor, entry.object_id, entry.outcome) == (operator, str(campaign.pk), "ok")
    assert entry.summary == f"campaign {campaign.pk}, 1 numbers, sent now"


def test_send_now_with_the_window_lifted_records_the_override(
        operator, provider, sms_template):
    operator.user_permissions.add(Permission.objects.get(codename="override_quiet_hours"))
    template = sms_template("plain")
    with time_machine.travel(shanghai_today(23, 30), tick=True):
        client = Client()
        client.force_login(operator)
        response = client.post("/sms/send/", {"template": template.pk,
                                              "recipients": "13800138000", "preview": "1"})
        draft = Campaign.objects.get(state=CampaignState.DRAFT)
        assert response.status_code == 200
        client.post("/sms/send/", {"template": template.pk, "recipients": "13800138000",
                                   "draft": draft.pk, "send": "1", "when": "now",
                                   "override_window": "on"})
    campaign = Campaign.objects.get(pk=draft.pk)
    assert campaign.window_override_by == operator
    override = AuditEntry.objects.get(action="campaign.window_override")
    assert (override.actor, override.object_id) == (operator, str(campaign.pk))
    assert AuditEntry.objects.get(action="campaign.confirm").object_id == str(campaign.pk)


def test_a_send_from_the_command_line_is_audited(provider, sms_template, tmp_path):
    template = sms_template()
    call_command("sms_send", "--template", str(template.provider_id), "--mobile", "13800138000",
                 "--var", "123456")
    campaign = Campaign.objects.get()
    assert AuditEntry.objects.get(action="campaign.confirm").object_id == str(campaign.pk)


def test_a_waiting_campaign_going_on_when_the_window_opens_is_audited(provider, sms_template):
    template = sms_template("plain")
    waiting = draft_of(template, ["13800138000"])
    Campaign.objects.filter(pk=waiting.pk).update(
        state=CampaignState.WAITING, resume_at=shanghai_today(8, 0))
    with time_machine.travel(shanghai_today(8, 1), tick=True):
        assert services.start_due_campaigns() == [waiting.pk]
    entry = AuditEntry.objects.get(action="campaign.start")
    assert entry.object_id == str(waiting.pk)
    assert entry.summary == f"waiting campaign {waiting.pk} goes on: the sending window opened"
