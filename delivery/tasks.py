"""Celery tasks of the delivery app: thin, idempotent, taking primary keys.

A purge may run twice (acks_late redelivery, the beat job overlapping a slow queue): the
`pending/failed -> sending` claim in `delivery.services.purging` lets only one of them call
the provider.
"""

from __future__ import annotations

import logging

from celery import Task, shared_task

from backoffice.operations.provider import ProviderNotConfigured
from delivery import services

logger = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, max_retries=30)
def send_purge_task(self: Task[[int], str | None], purge_id: int) -> str | None:
    """Send one stored purge; waits (retry with countdown) while the minute's limit is used."""
    try:
        request = services.send_purge(purge_id)
    except services.PurgeWindowFull as full:
        # Countdown of at most a minute: far below the broker's visibility timeout.
        raise self.retry(countdown=full.retry_in) from None
    except ProviderNotConfigured as error:
        logger.warning("purge %s not sent: %s", purge_id, error)
        return None
    return request.status if request else None


@shared_task(acks_late=True)
def send_due_purges_task() -> int:
    """Beat: queue purges whose task was lost, and failed ones whose back-off has passed."""
    due = services.due_purges()
    for purge_id in due:
        send_purge_task.delay(purge_id)
    return len(due)


@shared_task(acks_late=True)
def warn_expiring_certificates_task() -> int:
    """Beat, daily: the 30- and 7-day warnings of certificates bound to a domain."""
    return len(services.warn_expiring_certificates())
