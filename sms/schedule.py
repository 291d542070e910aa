"""Periodic SMS jobs, gathered by backoffice.celery into Celery beat's schedule.

Countdowns and intervals stay far below the broker's visibility timeout (one hour).
"""

from celery.schedules import crontab

BEAT_SCHEDULE = {
    "sms-sync-reports": {
        "task": "sms.tasks.sync_reports",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
    # The job decides whether a count is due (sms.services.report_totals): every 30 s it only
    # reads one row.
    "sms-count-report-totals": {
        "task": "sms.tasks.count_report_totals",
        "schedule": 30.0,
        "options": {"expires": 28},
    },
    # A sending campaign adds a few rows of counts a second (sms.services.status_counts): folded
    # every 30 s, its page sums tens of rows, not thousands.
    "sms-fold-campaign-status-counts": {
        "task": "sms.tasks.fold_campaign_status_counts",
        "schedule": 30.0,
        "options": {"expires": 28},
    },
    "sms-sync-templates-and-quota": {
        "task": "sms.tasks.sync_templates_and_quota",
        "schedule": 300.0,
        "options": {"expires": 290},
    },
    # Every 20 s: a campaign starts at most 20 s (plus the worker's pick-up) after its time.
    "sms-start-due-campaigns": {
        "task": "sms.tasks.start_due_campaigns",
        "schedule": 20.0,
        "options": {"expires": 18},
    },
    # Every 10 s (campaign_lease.SWEEP_EVERY_S): with the 12 s lease of a run in a worker, a
    # killed worker's campaign is queued again within 22 s (plus the next worker's pick-up).
    "sms-resume-stalled-campaigns": {
        "task": "sms.tasks.resume_stalled_campaigns",
        "schedule": 10.0,
        "options": {"expires": 9},
    },
    "sms-discard-stale-drafts": {
        "task": "sms.tasks.discard_stale_drafts",
        "schedule": 3600.0,
        "options": {"expires": 3500},
    },
    # Daily at 03:20 local time, a quiet hour: the next months of the message table made
    # (three ahead, so missed days lose nothing) and months past SMS_MESSAGE_RETENTION_MONTHS
    # archived and removed.
    "sms-maintain-message-table": {
        "task": "sms.tasks.maintain_message_table",
        "schedule": crontab(minute=20, hour=3),
        "options": {"expires": 3500},
    },
    # Until every file kept before this release is private; then one cheap query a run.
    "sms-secure-kept-files": {
        "task": "sms.tasks.secure_kept_files",
        "schedule": 600.0,
        "options": {"expires": 590},
    },
}
