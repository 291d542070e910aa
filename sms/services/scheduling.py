"""When a campaign may send: its chosen start time, and the marketing sending window.

Times staff type are wall-clock times of the provider's time zone (settings.TIME_ZONE,
Asia/Shanghai); they are stored in UTC. The window (`SMS_MARKETING_WINDOW`, parsed by the pure
`sms.window`) applies to marketing templates only, unless someone with the permission
`sms.override_quiet_hours` lifted it for one campaign.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from sms.models import Campaign, MessageType
from sms.window import SendingWindow, parse_window

OVERRIDE_PERMISSION = "sms.override_quiet_hours"
MAX_SCHEDULE_AHEAD = timedelta(days=90)
START_FORMAT = "%Y-%m-%d %H:%M"  # what the command line takes (`--at`)


class StartTimeError(ValueError):
    """A start time that cannot be used; the message says why, in the reader's language."""


def check_start_time(start_at: datetime, now: datetime | None = None) -> None:
    """Raise StartTimeError unless `start_at` is in the future and at most 90 days ahead."""
    now = now or timezone.now()
    if start_at <= now:
        raise StartTimeError(_("The start time is in the past; choose a time in the future."))
    if start_at > now + MAX_SCHEDULE_AHEAD:
        limit = timezone.localtime(now + MAX_SCHEDULE_AHEAD)
        raise StartTimeError(
            _("The start time is more than 90 days ahead; choose a time before %(limit)s.")
            % {"limit": f"{limit:{START_FORMAT}}"}
        )


def parse_start_time(text: str) -> datetime:
    """`YYYY-MM-DD HH:MM` in the provider's time zone -> an aware datetime (checked)."""
    try:
        naive = datetime.strptime(text.strip(), START_FORMAT)
    except ValueError:
        raise StartTimeError(
            _("%(value)s is not a date and time written YYYY-MM-DD HH:MM.") % {"value": text}
        ) from None
    start_at = timezone.make_aware(naive, timezone.get_default_timezone())
    check_start_time(start_at)
    return start_at


def marketing_window() -> SendingWindow:
    # Parsed at start-up already (backoffice.settings); parsed again here because tests
    # change the setting, and parsing is cheaper than any cache of it.
    return parse_window(settings.SMS_MARKETING_WINDOW)


def bound_by_window(campaign: Campaign) -> bool:
    """Whether the campaign's messages may only go out inside the marketing window."""
    return campaign.template.type == MessageType.MARKETING and not campaign.window_overridden


def first_send_at(campaign: Campaign) -> datetime | None:
    """When a scheduled campaign's first message really goes out, if not at its start: a
    marketing campaign that starts outside the sending window waits for the window to open.
    None when it starts on time (inside the window, an industry template, or overridden)."""
    if campaign.scheduled_at is None or not bound_by_window(campaign):
        return None
    local = timezone.localtime(campaign.scheduled_at, timezone.get_default_timezone())
    window = marketing_window()
    return None if window.contains(local) else window.next_opening(local)


def window_opens_at(now: datetime | None = None) -> datetime | None:
    """None while the marketing window is open; otherwise when it opens next (aware)."""
    local = timezone.localtime(now or timezone.now(), timezone.get_default_timezone())
    window = marketing_window()
    if window.contains(local):
        return None
    return window.next_opening(local)
