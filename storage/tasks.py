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
def mirror_bucket(root: str = "/", service_id: int | None = None) -> list[str]:
    """Mirror the folder tree under `root` of one service (`service_id`), or of every storage
    service that can be reached (the beat job), into StoredFile; the runs' states."""
    return [services.sync_tree(service, root).state
            for service in services.mirrored_services(service_id)]


@shared_task(acks_late=True)
def record_usage() -> int:
    """Read every reachable bucket's usage, which keeps it as the day's figure, even on days
    nobody opens the dashboard; returns the bytes used by them all."""
    return sum(services.bucket_usage(service, refresh=True)
               for service in services.mirrored_services(None))


@shared_task(acks_late=True)
def delete_folder_tree(deletion_id: int) -> str:
    """Delete a folder with everything in it (a FolderDeletion staff confirmed)."""
    return services.run_folder_deletion(deletion_id).state


@shared_task(acks_late=True)
def transfer_folder(job_id: int) -> str:
    """Copy or move a folder with everything in it (a FolderTransfer staff confirmed)."""
    return services.run_folder_transfer(job_id).state


@shared_task(acks_late=True)
def reconcile_direct_uploads() -> dict[str, int]:
    """Direct browser uploads started and never reported: done when the provider holds the
    file, abandoned after the configured time (their provider task cancelled)."""
    outcome = services.reconcile_direct_uploads()
    return {"done": outcome.done, "abandoned": outcome.abandoned}


@shared_task(acks_late=True)
def resume_folder_jobs() -> int:
    """Beat job: send folder deletions, copies and moves whose message or worker was lost to
    a worker again."""
    return len(services.resume_folder_jobs())
