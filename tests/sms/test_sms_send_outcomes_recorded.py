"""Send answers are written in one statement: accepted numbers become `processing` with their
provider id, refused ones `rejected` with the code, and a message no longer `submitting`
(cancelled, or settled by another run) keeps what it has."""

from __future__ import annotations

import pytest
from django.utils import timezone

from sms.models import Campaign, Chunk, Message, MessageStatus
from sms.services.bulk import SendOutcome, record_outcomes
from tests.sms.conftest import local_template

pytestmark = pytest.mark.django_db


def test_answers_land_only_on_messages_still_submitting():
    campaign = Campaign.objects.create(template=local_template(), source="form", state="sending")
    chunk = Chunk.objects.create(campaign=campaign, number=1, size=3, state="sending")
    accepted, refused, cancelled = (
        Message.objects.create(
            campaign=campaign, chunk=chunk, mobile=f"1380000000{n}", text="x", units=1,
            status=status,
        )
        for n, status in enumerate(("submitting", "submitting", "cancelled"))
    )
    now = timezone.now()

    record_outcomes(
        [
            SendOutcome(accepted.pk, MessageStatus.PROCESSING, 9001, ""),
            SendOutcome(refused.pk, MessageStatus.REJECTED, None, "MOBILE_BLACKLISTED"),
            SendOutcome(cancelled.pk, MessageStatus.PROCESSING, 9003, ""),
        ],
        now,
    )

    rows = {m.pk: m for m in Message.objects.all()}
    assert (rows[accepted.pk].status, rows[accepted.pk].provider_message_id) == ("processing", 9001)
    assert rows[accepted.pk].status_changed_at == now
    assert (rows[refused.pk].status, rows[refused.pk].error_code) == (
        "rejected", "MOBILE_BLACKLISTED"
    )
    assert rows[refused.pk].provider_message_id is None
    assert (rows[cancelled.pk].status, rows[cancelled.pk].provider_message_id) == (
        "cancelled", None
    )
