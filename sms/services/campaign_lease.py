"""A campaign's lease (rule 1 of `sms.services.campaigns`): one run at a time per campaign.

A run takes the lease with a conditional update (free or expired only) and gives it up when it
stops, or keeps it until its backoff is over; a dead worker's lease simply runs out, and the
beat job's sweep (`stalled_campaigns`, every SWEEP_EVERY_S) queues such campaigns again.

How long the lease lasts decides how soon a dead worker's campaign goes on. A run in a worker
is *watched*: a `LeaseKeeper` thread renews a short lease (WATCHED_LEASE) every RENEW_EVERY_S,
whatever the run is doing (waiting on a slow provider call, reading the report), so a SIGKILL
is noticed within WATCHED_LEASE + SWEEP_EVERY_S (22 s). The keeper stops at the run's time limit
(its budget plus `lease_duration()`, the longest a call may take), so a run stuck in a call
beyond any timeout still loses its lease, as it did when a long lease was renewed only between
calls. A run inside a transaction (a caller's atomic block, a test's) cannot be seen by another
connection anyway: it keeps the long lease, renewed between calls.

Sending each number once does not rest on the lease alone: a number is marked `submitting`
before its call, and a run that takes over reconciles such numbers with the provider's report
before it sends anything else (rule 4), waiting while the call may still be under way.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.db import connection
from django.db.models import Q
from django.utils import timezone

from backoffice.operations.lease_renewal import LeaseRenewer
from sms.models import Campaign, CampaignState, ChunkState
from sms.services.timing import lease_duration

# Renewed four times a lease: three renewals may fail (the database restarting) before a live
# run's lease runs out. A dead run's is free 9-12 s after its last renewal.
WATCHED_LEASE = timedelta(seconds=12)
RENEW_EVERY_S = 3.0
SWEEP_EVERY_S = 10.0  # sms.schedule's "sms-resume-stalled-campaigns"


def watched() -> bool:
    """Whether a run started now can be watched by a LeaseKeeper (see the module's note)."""
    return not connection.in_atomic_block


def run_lease(is_watched: bool) -> timedelta:
    return WATCHED_LEASE if is_watched else lease_duration()


def claim(campaign_id: int, lease: timedelta | None = None) -> str | None:
    """Take the campaign's lease; None when another run holds it or nothing is to be done."""
    token = uuid.uuid4().hex
    now = timezone.now()
    taken = (
        Campaign.objects.filter(
            pk=campaign_id,
            state__in=(CampaignState.QUEUED, CampaignState.SENDING, CampaignState.CANCELLED),
        )
        .filter(lease_free(now))
        .update(lease_owner=token, lease_expires_at=now + (lease or lease_duration()))
    )
    if not taken:
        return None
    Campaign.objects.filter(pk=campaign_id, state=CampaignState.QUEUED).update(
        state=CampaignState.SENDING
    )
    return token


def extend(campaign_id: int, token: str, lease: timedelta) -> bool:
    """Push the lease's end `lease` from now; False when the run no longer holds it."""
    return bool(
        Campaign.objects.filter(pk=campaign_id, lease_owner=token).update(
            lease_expires_at=timezone.now() + lease
        )
    )


def release(campaign_id: int, token: str, until: datetime | None = None) -> None:
    """Give the lease up; with `until`, no run may take it before then (a backoff)."""
    Campaign.objects.filter(pk=campaign_id, lease_owner=token).update(
        lease_owner="", lease_expires_at=until
    )


def lease_free(now: datetime) -> Q:
    """No run holds the lease: never taken, given up, or expired with its run."""
    return Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now)


class LeaseKeeper(LeaseRenewer):
    """Renews a run's lease (`extend`) until the run ends (`with` block), the lease is lost,
    or `limit_s` seconds have passed (`backoffice.operations.lease_renewal`)."""

    def __init__(self, campaign_id: int, token: str, limit_s: float,
                 lease: timedelta | None = None, every_s: float | None = None) -> None:
        kept_for = lease or WATCHED_LEASE
        super().__init__(lambda: extend(campaign_id, token, kept_for),
                         every_s=every_s or RENEW_EVERY_S, what=f"campaign {campaign_id}",
                         limit_s=limit_s)


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
