"""Periodic jobs of media processing (Celery beat_schedule entries, copied by the DB scheduler)."""

BEAT_SCHEDULE = {
    "media-mark-interrupted-jobs": {
        "task": "media.tasks.mark_interrupted_jobs",
        "schedule": 300.0,
        "options": {"expires": 290},  # a run that waited a whole period is obsolete
    },
}
