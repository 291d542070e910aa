"""Periodic jobs of the delivery app (Celery beat_schedule entries, copied by the DB scheduler)."""

from celery.schedules import crontab

BEAT_SCHEDULE = {
    "delivery-send-due-purges": {
        "task": "delivery.tasks.send_due_purges_task",
        "schedule": 60.0,
        "options": {"expires": 55},  # a run that waited longer than the period is obsolete
    },
    "delivery-warn-expiring-certificates": {
        "task": "delivery.tasks.warn_expiring_certificates_task",
        # Daily, early morning (the project's time zone): each warning is given once, so a
        # missed day only delays it (warned_days).
        "schedule": crontab(minute=10, hour=4),
        "options": {"expires": 3600},
    },
}
