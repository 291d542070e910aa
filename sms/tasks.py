"""Celery tasks of the SMS app: thin, keyed by primary key, all work in `sms.services`."""

from __future__ import annotations

import logging

from celery import shared_task

from sms import services

logger = logging.getLogger(__name__)


@shared_task(acks_late=True)
def send_campaign(campaign_id: int) -> str:
    """Send what is left of a campaign; queues the next run when one is needed.

    Safe to deliver twice: the campaign's lease lets one run at a time do the work.
    """
    outcome = services.run_campaign(campaign_id)
    if outcome.again:
        # celery takes None as "no countdown"; celery-types wants a number.
        send_campaign.apply_async(
            (campaign_id,), countdown=outcome.countdown or None  # type: ignore[arg-type]
        )
    return outcome.state


@shared_task(acks_late=True)
def sync_reports() -> int:
    """Beat job: move sent messages to their final status from the delivery report."""
    result = services.sync_reports()
    if result.busy:
        logger.info("SMS report sync: the previous sync is still running")
    else:
        logger.info("SMS report sync: %s pages, moved %s", result.pages, result.moved)
    return result.moved_total


@shared_task(acks_late=True)
def count_report_totals() -> bool:
    """Beat job: count the delivery report's totals of the whole table again, when the page
    reads them kept (a big table) and they are due."""
    return services.recount_report_totals()


@shared_task(acks_late=True)
def fold_campaign_status_counts() -> int:
    """Beat job: fold each busy campaign's kept counts into one row per status."""
    return services.fold_campaign_status_counts()


@shared_task(acks_late=True)
def sync_templates_and_quota() -> None:
    """Beat job: refresh template statuses (review outcomes) and the quota figures."""
    services.sync_templates_and_quota()


@shared_task(acks_late=True)
def start_due_campaigns() -> int:
    """Beat job: start scheduled campaigns whose time has come, and resume campaigns waiting
    for the sending window once it opens (each exactly once, whatever runs it twice)."""
    return len(services.start_due_campaigns())


@shared_task(acks_late=True)
def resume_stalled_campaigns() -> int:
    """Beat job: queue a run for campaigns whose worker died (their lease ran out)."""
    return len(services.resume_stalled_campaigns())


@shared_task(acks_late=True)
def discard_stale_drafts() -> int:
    """Beat job: drop drafts of the send page and the command line nobody confirmed."""
    return services.discard_stale_drafts()


@shared_task(acks_late=True)
def secure_kept_files() -> int:
    """Beat job: copy files kept before kept files were private to the private form."""
    return services.secure_kept_files()


@shared_task(acks_late=True)
def maintain_message_table() -> int:
    """Beat job: the message table's months ahead made, and months past the retention
    archived and removed; how many months were archived."""
    made = services.ensure_message_months()
    if made:
        logger.info("SMS message table: months %s made", ", ".join(map(str, made)))
    return len(services.archive_old_months().archived)
