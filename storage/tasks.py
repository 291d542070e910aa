"""Celery tasks of object storage: thin wrappers over `storage.services`."""

from __future__ import annotations

from celery import shared_task

from storage import services


@shared_task(acks_late=True)
def upload_file(upload_id: int) -> str | None:
    """Send one upload (or resume it at its saved part); a duplicate delivery is a no-op."""
    task = services.run_upload(upload_id)
    return task.state if task is not None else None


@shared_task(acks_late=True)
def recover_uploads() -> int:
    """Hand abandoned uploads to a worker again and drop local copies nobody needs."""
    services.remove_orphan_copies()
    return len(services.recover_stalled_uploads())


@shared_task(acks_late=True)
def mirror_bucket(root: str = "/") -> str:
    """Mirror the folder tree under `root` into StoredFile."""
    return services.sync_tree(root).state


@shared_task(acks_late=True)
def record_usage() -> int:
    """Read the bucket's usage, which keeps it as the day's figure, even on days nobody opens
    the dashboard; returns the bytes used."""
    return services.bucket_usage(refresh=True)
