"""Cancelling a campaign, discarding an import or a draft, and deleting a template are asked
on the confirmation page first, with what will happen and how many numbers it touches; the old
buttons' plain POST only asks, and the audit log records the action once it is confirmed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import unescape

import pytest
from django.urls import reverse

from backoffice.models import AuditEntry
from sms import services
from sms.models import Campaign, CampaignSource, CampaignState, Message, MessageStatus
from sms.services.importing import GoodLine
from tests.sms.conftest import local_template

pytestmark = pytest.mark.django_db

S = MessageStatus


def campaign_with(statuses: Sequence[str], state: str, source: str = CampaignSource.IMPORT
                  ) -> Campaign:
    lines = [GoodLine(line_number=n, mobile=f"138{n:08d}", variables=["1"], text="码1",
                      units=1, carrier="CMCC") for n in range(len(statuses))]
    campaign = services.store_recipients(local_template(), lines)
    for message, status in zip(campaign.messages.order_by("id"), statuses, strict=True):
        Message.objects.filter(pk=message.pk).update(status=status)
    Campaign.objects.filter(pk=campaign.pk).update(state=state, source=source)
    campaign.refresh_from_db()
    return campaign


def question(html: str) -> str:
    match = re.search(r'<h1 id="confirm-question">([^<]*)</h1>', html)
    assert match, "no confirmation page"
    return unescape(match.group(1))


def test_cancel_the_rest_asks_with_the_count_of_numbers_not_yet_sent(operator_client):
    campaign = campaign_with([S.QUEUED] * 1785 + [S.PROCESSING] * 15, CampaignState.SENDING)
    response = operator_client.post(reverse("sms:campaign_cancel", args=[campaign.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert question(html) == (f"Cancel the 1,785 numbers not yet sent of campaign "
                              f"#{campaign.pk}?")
    assert "Numbers already handed to the provider are not affected." in html
    assert "This cannot be undone" in html and ">Cancel 1,785 numbers</button>" in html
    campaign.refresh_from_db()
    assert campaign.state == CampaignState.SENDING
    assert Message.objects.filter(campaign=campaign, status=S.QUEUED).count() == 1785
    assert not AuditEntry.objects.filter(action="campaign.cancel").exists()


def test_one_number_left_is_worded_in_the_singular(operator_client):
    campaign = campaign_with([S.QUEUED, S.PROCESSING], CampaignState.HALTED)
    html = operator_client.get(reverse("sms:campaign_cancel", args=[campaign.pk])
                               ).content.decode()
    assert question(html) == f"Cancel the 1 number not yet sent of campaign #{campaign.pk}?"


def test_a_confirmed_cancel_stops_the_rest_and_is_audited(operator_client):
    campaign = campaign_with([S.QUEUED] * 3 + [S.PROCESSING], CampaignState.SENDING)
    response = operator_client.post(reverse("sms:campaign_cancel", args=[campaign.pk]),
                                    {"confirmed": "1"})
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.state == CampaignState.CANCELLED
    assert Message.objects.filter(campaign=campaign, status=S.CANCELLED).count() == 3
    assert AuditEntry.objects.filter(action="campaign.cancel").count() == 1


def test_a_finished_campaign_is_not_offered_a_cancel(operator_client):
    campaign = campaign_with([S.SUCCESS], CampaignState.DONE)
    response = operator_client.post(reverse("sms:campaign_cancel", args=[campaign.pk]))
    assert response.status_code == 302
    assert ("The campaign is not being sent; there is nothing to cancel."
            in [str(m) for m in response.wsgi_request._messages])


def test_discarding_an_import_asks_first_and_names_the_numbers(operator_client):
    campaign = campaign_with([S.QUEUED] * 12, CampaignState.DRAFT)
    Campaign.objects.filter(pk=campaign.pk).update(total_numbers=12)
    html = operator_client.post(reverse("sms:campaign_discard", args=[campaign.pk])
                                ).content.decode()
    assert question(html) == (f"Discard the import of campaign #{campaign.pk} and its 12 "
                              f"numbers to send?")
    assert "The uploaded file and its report of bad lines are deleted." in html
    assert Campaign.objects.filter(pk=campaign.pk).exists()
    operator_client.post(reverse("sms:campaign_discard", args=[campaign.pk]),
                         {"confirmed": "1"})
    assert not Campaign.objects.filter(pk=campaign.pk).exists()


def test_discarding_a_draft_of_the_send_page_asks_first(operator_client):
    campaign = campaign_with([S.QUEUED], CampaignState.DRAFT, CampaignSource.FORM)
    Campaign.objects.filter(pk=campaign.pk).update(total_numbers=1)
    html = operator_client.post(reverse("sms:campaign_discard", args=[campaign.pk])
                                ).content.decode()
    assert question(html) == (f"Discard the draft of campaign #{campaign.pk} and its 1 number "
                              f"to send?")


def test_a_campaign_already_sent_cannot_be_discarded(operator_client):
    campaign = campaign_with([S.SUCCESS], CampaignState.DONE)
    response = operator_client.post(reverse("sms:campaign_discard", args=[campaign.pk]),
                                    {"confirmed": "1"})
    assert response.status_code == 302 and Campaign.objects.filter(pk=campaign.pk).exists()


def test_deleting_a_template_asks_on_the_confirmation_page(operator_client):
    template = local_template(9, title="Login code")
    html = operator_client.get(reverse("sms:template_delete", args=[template.pk])
                               ).content.decode()
    assert question(html) == "Delete template #9 “Login code”?"
    assert template.content in unescape(html)
    html = operator_client.post(reverse("sms:template_delete", args=[template.pk])
                                ).content.decode()
    assert 'id="confirm-question"' in html
    template.refresh_from_db()
    assert template.removed_at is None


def test_an_auditor_sees_no_confirmation_page(auditor_client):
    campaign = campaign_with([S.QUEUED], CampaignState.SENDING)
    assert auditor_client.get(reverse("sms:campaign_cancel", args=[campaign.pk])
                              ).status_code == 403
