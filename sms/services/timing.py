"""How long a provider call may take, and the waits that follow from it.

A call may last `connect + read` seconds or more: the read timeout limits each socket read, not
the whole answer, and PROVIDER_TIMEOUT_S has no upper bound. Every wait that must outlast a
call is therefore derived from the configured timeouts, read when needed (tests change them).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings

from providerkit.timeouts import with_read

MIN_LEASE = timedelta(seconds=120)
# Our own machines' clocks (web and worker both stamp `submitted_at`) and scheduling slack.
MARGIN = timedelta(seconds=60)
LEASE_CALLS = 2  # a run renews its lease after every call: it must outlast two to be safe
# A call we gave up on may still be worked on by the provider: its numbers are absent from the
# report until then. After this many call lengths, absence is taken as "never accepted".
GRACE_CALLS = 4


def call_timeouts() -> tuple[float, float]:
    """(connect, read) seconds for the SMS client."""
    return with_read(float(settings.PROVIDER_TIMEOUT_S))


def call_length() -> timedelta:
    connect, read = call_timeouts()
    return timedelta(seconds=connect + read)


def lease_duration() -> timedelta:
    """How long a run (campaign send or report sync) holds its lease between renewals."""
    return max(MIN_LEASE, LEASE_CALLS * call_length() + MARGIN)


def reconcile_grace() -> timedelta:
    """How long after its call a number missing from the report may still appear in it."""
    return GRACE_CALLS * call_length() + MARGIN
