"""Where a campaign's numbers stand, counted from its messages: the figures of its page.

Two progressions, which staff read separately: *sending* (numbers handed to the provider, or
refused by it, out of all the campaign's numbers: cancelled ones are never sent, so they keep a
cancelled campaign below 100 %) and *delivery* (final reports out of the numbers the provider
accepted). A campaign is only "done" for staff when both are complete, so a campaign
whose numbers are all sent but not yet reported shows its delivery still running, and a
cancelled campaign never shows 100 % of numbers it never sent.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import timedelta

from django.db.models import Count
from django.utils import timezone

from backoffice.operations import soft_cache
from sms.models import Campaign, Message, MessageStatus
from sms.services import status_counts
from sms.services.search import campaign_id_bounds

# Numbers sent this recently by another campaign are pointed out before a draft is confirmed.
RECENT_SEND_WINDOW = timedelta(hours=24)

_S = MessageStatus
# Each status counted under one heading; a status we do not know is "unknown".
HEADINGS: dict[str, str] = {
    _S.QUEUED: "queued",
    _S.SUBMITTING: "queued",
    _S.PROCESSING: "sent",
    _S.SUCCESS: "delivered",
    _S.FAILED: "failed",
    _S.REJECTED: "failed",
    _S.CANCELLED: "cancelled",
}


@dataclass(frozen=True)
class CampaignCounts:
    queued: int = 0  # not handed to the provider yet (or in doubt: being submitted)
    sent: int = 0  # accepted, waiting for the delivery report
    delivered: int = 0
    failed: int = 0  # refused by the provider, or reported failed
    unknown: int = 0  # a status the provider reported that we do not know
    cancelled: int = 0

    @property
    def total(self) -> int:
        return (self.queued + self.sent + self.delivered + self.failed + self.unknown
                + self.cancelled)

    @property
    def to_send(self) -> int:
        return self.total - self.cancelled

    @property
    def handed_over(self) -> int:
        return self.to_send - self.queued

    @property
    def reported(self) -> int:
        """Numbers whose outcome is known or no longer awaited from a report."""
        return self.delivered + self.failed + self.unknown

    @property
    def sending_percent(self) -> int:
        return _percent(self.handed_over, self.total)

    @property
    def delivery_percent(self) -> int:
        return _percent(self.reported, self.sent + self.reported)

    @property
    def sending_done(self) -> bool:
        return self.queued == 0

    @property
    def delivery_done(self) -> bool:
        return self.sending_done and self.sent == 0

    @property
    def settled(self) -> bool:
        """Every number in a final status: nothing can change these counts any more (a status
        we do not know is still synced, so it may)."""
        return self.delivery_done and self.unknown == 0

    def as_dict(self) -> dict[str, int | bool]:
        return {
            "queued": self.queued, "sent": self.sent, "delivered": self.delivered,
            "failed": self.failed, "unknown": self.unknown, "cancelled": self.cancelled,
            "total": self.total, "sending_percent": self.sending_percent,
            "delivery_percent": self.delivery_percent, "sending_done": self.sending_done,
            "delivery_done": self.delivery_done,
        }


def _percent(part: int, whole: int) -> int:
    # Rounded down, so that 100 % means all of them: 999 of 1000 is 99 %, never 100 %.
    return 100 if whole == 0 else (100 * part) // whole


def campaign_counts(campaign: Campaign) -> CampaignCounts:
    """The campaign's numbers by heading.

    On PostgreSQL the database keeps them as messages change (sms.services.status_counts): a
    sum of a few rows, whatever the campaign's size. Elsewhere, one grouped query over the
    campaign's own messages.

    A settled campaign (every number in a final status) never changes again, so its counts are
    also kept on its row (`settled_counts`): an old campaign's page reads them without summing
    or counting anything, on any database.
    """
    if campaign.settled_counts:
        return CampaignCounts(**campaign.settled_counts)
    by_status = status_counts.of_campaign(campaign.pk)
    if by_status is None:
        by_status = dict(
            Message.objects.filter(campaign_id=campaign.pk, **campaign_id_bounds(campaign.pk))
            .order_by().values_list("status").annotate(n=Count("id")))
    counts: dict[str, int] = dict.fromkeys(
        ("queued", "sent", "delivered", "failed", "unknown", "cancelled"), 0)
    for status, n in by_status.items():
        counts[HEADINGS.get(status, "unknown")] += n
    result = CampaignCounts(**counts)
    if result.settled:
        Campaign.objects.filter(pk=campaign.pk).update(settled_counts=asdict(result))
        campaign.settled_counts = asdict(result)
    return result


def recently_sent_elsewhere(campaign: Campaign) -> int:
    """How many of the campaign's numbers another campaign sent in the last 24 hours: a person
    receiving the same message twice in a day is the complaint staff want to avoid."""
    since = timezone.now() - RECENT_SEND_WINDOW
    mobiles = campaign.messages.values("mobile")
    return (Message.objects.filter(mobile__in=mobiles, submitted_at__gte=since)
            .exclude(campaign_id=campaign.pk).values("mobile").distinct().count())


def recently_sent_numbers(campaign: Campaign, limit: int = 10) -> list[tuple[str, int]]:
    """Up to `limit` of those numbers, each with the other campaign that sent it last (the
    newest first), so that the page can name them rather than only count them."""
    since = timezone.now() - RECENT_SEND_WINDOW
    mobiles = campaign.messages.values("mobile")
    rows = (Message.objects.filter(mobile__in=mobiles, submitted_at__gte=since)
            .exclude(campaign_id=campaign.pk).order_by("-submitted_at")
            .values_list("mobile", "campaign_id")[: limit * 20])
    named: dict[str, int] = {}
    for mobile, other in rows:
        if mobile not in named:
            named[mobile] = other
        if len(named) == limit:
            break
    return list(named.items())


# The campaign page polls its progress every second while sending: one count serves the page
# and every poll of this many seconds (on SQLite the count reads every message of the
# campaign; on PostgreSQL it is cheap, but several staff watching a campaign still share it).
POLL_COUNTS_TTL_S = 2


def polled_campaign_counts(campaign: Campaign) -> CampaignCounts:
    """`campaign_counts`, at most POLL_COUNTS_TTL_S old, for the page and its progress poll."""
    key = f"sms:campaign-counts:{campaign.pk}:{campaign.created_at.timestamp()}"
    cached = soft_cache.read(key)
    if cached is not None:
        return CampaignCounts(**cached)
    counts = campaign_counts(campaign)
    soft_cache.write(key, asdict(counts), POLL_COUNTS_TTL_S)
    return counts
