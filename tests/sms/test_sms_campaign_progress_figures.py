"""The campaign page counts its numbers by where they stand, and shows sending and delivery
progress apart: all numbers sent is not "done" while reports are missing, and a cancelled
campaign never reads 100 % sent."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sms import services
from sms.models import Campaign, CampaignState, Message, MessageStatus
from sms.services.importing import GoodLine
from tests.sms.conftest import local_template

pytestmark = pytest.mark.django_db

S = MessageStatus


def campaign_with(statuses: Sequence[str], state: str = CampaignState.DONE) -> Campaign:
    lines = [GoodLine(line_number=n, mobile=f"138{n:08d}", variables=["1"], text="码1",
                      units=1, carrier="CMCC") for n in range(len(statuses))]
    campaign = services.store_recipients(local_template(), lines)
    for message, status in zip(campaign.messages.order_by("id"), statuses, strict=True):
        Message.objects.filter(pk=message.pk).update(
            status=status, error_code="MOBILE_LIMIT" if status == S.REJECTED else "")
    Campaign.objects.filter(pk=campaign.pk).update(state=state)
    campaign.refresh_from_db()
    return campaign


def test_numbers_are_counted_under_one_heading_each():
    campaign = campaign_with([S.QUEUED, S.SUBMITTING, S.PROCESSING, S.SUCCESS, S.SUCCESS,
                              S.FAILED, S.REJECTED, S.CANCELLED, "expired"])

    counts = services.campaign_counts(campaign)

    assert (counts.queued, counts.sent, counts.delivered, counts.failed, counts.unknown,
            counts.cancelled) == (2, 1, 2, 2, 1, 1)
    assert counts.total == 9


def test_all_sent_but_not_reported_is_not_done():
    counts = services.campaign_counts(campaign_with([S.PROCESSING, S.PROCESSING, S.SUCCESS]))

    assert counts.sending_percent == 100 and counts.sending_done
    assert counts.delivery_percent == 33 and not counts.delivery_done


def test_a_cancelled_campaign_does_not_read_100_percent_sent():
    statuses = [S.SUCCESS] * 2 + [S.CANCELLED] * 3
    counts = services.campaign_counts(campaign_with(statuses, CampaignState.CANCELLED))

    assert counts.sending_percent == 40
    assert counts.delivery_percent == 100


def test_the_progress_answer_carries_both_progressions_and_every_count(operator_client):
    campaign = campaign_with([S.PROCESSING, S.SUCCESS, S.CANCELLED], CampaignState.CANCELLED)

    data = operator_client.get(reverse("sms:campaign_progress", args=[campaign.pk])).json()

    assert (data["sending_percent"], data["delivery_percent"]) == (66, 50)
    assert (data["queued"], data["sent"], data["delivered"], data["cancelled"]) == (0, 1, 1, 1)
    assert data["sending_text"] == (
        "2 of 3 numbers handed to the provider (1 cancelled: it will not be sent)")
    assert data["delivery_text"] == "1 of 2 accepted numbers have their final status"


def test_a_refused_or_failed_number_shows_its_reason_and_code(operator_client):
    campaign = campaign_with([S.REJECTED, S.FAILED, S.SUCCESS])

    page = operator_client.get(reverse("sms:campaign", args=[campaign.pk])).content.decode()

    assert "<code>MOBILE_LIMIT</code>" in page
    assert "at most 10 industry messages per number per day" in page
    assert "The carrier reported the message as not delivered" in page
    assert page.count('class="muted failure-reason"') == 2


def test_a_draft_warns_with_the_count_of_numbers_another_campaign_sent_today(operator_client):
    from django.utils import timezone

    earlier = campaign_with([S.SUCCESS, S.SUCCESS, S.SUCCESS])
    Message.objects.filter(campaign=earlier).update(submitted_at=timezone.now())
    lines = [GoodLine(line_number=n, mobile=f"138{n:08d}", variables=["1"], text="码1",
                      units=1, carrier="CMCC") for n in (1, 2, 7)]
    draft = services.store_recipients(local_template(provider_id=2), lines)

    page = operator_client.get(reverse("sms:campaign", args=[draft.pk])).content.decode()

    assert "2 numbers of this campaign were sent a message by another campaign" in page
    assert services.recently_sent_elsewhere(earlier) == 0


def test_the_progress_poll_counts_once_for_every_poll_of_two_seconds():
    campaign = campaign_with([S.PROCESSING, S.SUCCESS])
    services.polled_campaign_counts(campaign)
    Message.objects.filter(campaign=campaign).update(status=S.SUCCESS)

    again = services.polled_campaign_counts(campaign)

    assert (again.sent, again.delivered) == (1, 1)  # the first count, reused
    assert services.campaign_counts(campaign).delivered == 2  # the page itself counts afresh


def message_queries(captured: CaptureQueriesContext) -> list[str]:
    # The cache may be the database (embedded runs): only reads of the messages count here.
    return [query["sql"] for query in captured.captured_queries if "sms_message" in query["sql"]]


def test_a_settled_campaign_is_counted_once_and_its_counts_kept():
    campaign = campaign_with([S.SUCCESS, S.FAILED, S.REJECTED, S.CANCELLED])

    first = services.campaign_counts(campaign)
    with CaptureQueriesContext(connection) as captured:
        again = services.campaign_counts(campaign)

    assert first.settled and again == first
    assert message_queries(captured) == []


def test_a_settled_campaigns_counts_outlive_an_emptied_cache():
    """Kept on its row, not in the cache: a deployment or a Redis restart counts nothing again."""
    from django.core.cache import cache

    campaign = campaign_with([S.SUCCESS, S.FAILED])
    first = services.campaign_counts(campaign)
    cache.clear()
    with CaptureQueriesContext(connection) as captured:
        again = services.campaign_counts(Campaign.objects.get(pk=campaign.pk))

    assert again == first and (again.delivered, again.failed) == (1, 1)
    assert message_queries(captured) == []


def test_a_campaign_still_awaiting_reports_is_counted_again_each_time():
    campaign = campaign_with([S.SUCCESS, S.PROCESSING, "expired"])
    assert not services.campaign_counts(campaign).settled

    Message.objects.filter(campaign=campaign, status=S.PROCESSING).update(status=S.SUCCESS)
    counts = services.campaign_counts(campaign)

    assert counts.delivered == 2 and counts.unknown == 1  # an unknown status may still change
    assert not counts.settled
