"""Periodic jobs of the top-up app (Celery beat_schedule entries, copied by the DB scheduler)."""

from celery.schedules import crontab

BEAT_SCHEDULE = {
    "topup-poll-orders": {
        "task": "topup.tasks.poll_orders_task",
        "schedule": 30.0,
        "options": {"expires": 25},  # a run that waited longer than the period is obsolete
    },
    "topup-balance-snapshot": {
        "task": "topup.tasks.snapshot_balance_task",
        "schedule": 600.0,
        "options": {"expires": 550},
    },
    "topup-process-callbacks": {
        # The endpoint queues this itself; beat only catches what a lost task left behind (a
        # worker killed holding it, Redis restarted empty), within a minute. A run with
        # nothing to apply costs one query.
        "task": "topup.tasks.process_callbacks_task",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
    "topup-judge-receipts-again": {
        # Callbacks stored while their sign could not be checked (our outage: answered 503).
        "task": "topup.tasks.judge_receipts_again_task",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
    "topup-report-unknown-tokens": {
        # A minute's count of unknown API tokens reaches the audit log within two minutes.
        "task": "topup.tasks.report_unknown_tokens_task",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
    "topup-daily-report": {
        "task": "topup.tasks.daily_report_task",
        # 00:30 in CELERY_TIMEZONE (the back-office's zone): yesterday is over, and the last
        # balance snapshot of the day has been taken.
        "schedule": crontab(minute=30, hour=0),
    },
}
