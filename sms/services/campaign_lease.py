"""A campaign's lease (rule 1 of `sms.services.campaigns`): one run at a time per campaign.

A run takes the lease with a conditional update (free or expired only) and gives it up when it
stops, or keeps it until its backoff is over; a dead worker's lease simply runs out, and the
beat job's sweep (`stalled_campaigns`) queues such campaigns again.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.db.models import Q
from django.utils import timezone

from sms.models import Campaign, CampaignState, ChunkState
from sms.services.timing import lease_duration


def claim(campaign_id: int) -> str | None:
    """Take the campaign's lease; None when another run holds it or nothing is to be done."""
    token = uuid.uuid4().hex
    now = timezone.now()
    taken = (
        Campaign.objects.filter(
            pk=campaign_id,
            state__in=(CampaignState.QUEUED, CampaignState.SENDING, CampaignState.CANCELLED),
        )
        .filter(lease_free(now))
        .update(lease_owner=token, lease_expires_at=now + lease_duration())
    )
    if not taken:
        return None
    Campaign.objects.filter(pk=campaign_id, state=CampaignState.QUEUED).update(
        state=CampaignState.SENDING
    )
    return token


def release(campaign_id: int, token: str, until: datetime | None = None) -> None:
    """Give the lease up; with `until`, no run may take it before then (a backoff)."""
    Campaign.objects.filter(pk=campaign_id, lease_owner=token).update(
        lease_owner="", lease_expires_at=until
    )


def lease_free(now: datetime) -> Q:
    """No run holds the lease: never taken, given up, or expired with its run."""
    return Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now)


def stalled_campaigns(now: datetime | None = None) -> list[int]:
    """Campaigns that should be running but whose run died (lease expired) or never started.

    A lease kept for a backoff counts as held: such a campaign is not stalled, it waits.
    """
    now = now or timezone.now()
    free = lease_free(now)
    sending = Q(state=CampaignState.SENDING) & free
    cutoff = now - lease_duration()
    # Queued for a lease's length since its confirmation, or since beat started it at its
    # scheduled time or at the window's opening: only then was its task lost.
    queued = (
        Q(state=CampaignState.QUEUED, confirmed_at__lt=cutoff)
        & (Q(scheduled_at__isnull=True) | Q(scheduled_at__lt=cutoff))
        & (Q(resume_at__isnull=True) | Q(resume_at__lt=cutoff))
    )
    cancelled_open = (
        Q(state=CampaignState.CANCELLED, chunks__state__in=(ChunkState.PENDING, ChunkState.SENDING))
        & free
    )
    return list(
        Campaign.objects.filter(sending | queued | cancelled_open)
        .values_list("id", flat=True)
        .distinct()
    )
