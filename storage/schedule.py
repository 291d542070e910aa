"""Periodic jobs of object storage (Celery beat_schedule entries, copied by the DB scheduler)."""

BEAT_SCHEDULE = {
    "storage-mirror-bucket": {
        "task": "storage.tasks.mirror_bucket",
        "schedule": 900.0,
        "args": ("/",),
        "options": {"expires": 850},  # a walk that waited a whole period is obsolete
    },
    "storage-recover-uploads": {
        # Shorter than the upload lease, so an abandoned upload resumes within minutes.
        "task": "storage.tasks.recover_uploads",
        "schedule": 120.0,
        "options": {"expires": 110},
    },
    "storage-resume-folder-jobs": {
        # Every 15 s (job_lease.SWEEP_EVERY_S): with the 20 s lease of a watched run, a killed
        # worker's folder job goes on within 35 s; one whose message was lost is sent again
        # STORAGE_FOLDER_JOB_STALE_S (60 s) after it was asked for.
        "task": "storage.tasks.resume_folder_jobs",
        "schedule": 15.0,
        "options": {"expires": 14},
    },
    "storage-record-usage": {
        # The day's usage for the dashboard's chart; hourly, so a day keeps a late reading.
        "task": "storage.tasks.record_usage",
        "schedule": 3600.0,
        "options": {"expires": 3500},
    },
    "storage-reconcile-direct-uploads": {
        # Direct uploads the browser never reported: done if the provider holds the file,
        # abandoned (and the provider's task cancelled) after STORAGE_DIRECT_UPLOAD_ABANDON_S.
        "task": "storage.tasks.reconcile_direct_uploads",
        "schedule": 300.0,
        "options": {"expires": 290},
    },
}
