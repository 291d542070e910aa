"""Direct uploads the browser started and never reported (the beat job
`storage-reconcile-direct-uploads`), and cancelling a direct upload's provider task.

A tab closed after the last part, a lost "complete" report, a laptop that went to sleep: the
back-office asks the provider. A file at the path with the task's size (written after the task
was opened) makes the task done, with the same records as a reported completion; a task quiet
for `STORAGE_DIRECT_UPLOAD_ABANDON_S` is shown as abandoned and the provider's unfinished
task, which would otherwise hold its parts for 24 hours, is cancelled.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext

from backoffice.operations.provider import ProviderNotConfigured
from storage.client import NotFound, StorageError
from storage.models import UploadTask
from storage.resumable import cancel_task
from storage.services.connection import storage_client
from storage.services.details import FileDetails, fetch_details
from storage.services.direct_uploads import record_done

logger = logging.getLogger(__name__)

# A page sending parts reports at least this often (with each signing request), so a task
# quiet this long is worth a look at the provider.
QUIET = timedelta(minutes=5)
# File dates and our clock may disagree a little; a file older than the task by more than
# this was there before it.
CLOCK_SLACK = timedelta(minutes=2)


@dataclass
class Reconciled:
    done: int = 0
    abandoned: int = 0


def abandon_after() -> timedelta:
    return timedelta(seconds=int(getattr(settings, "STORAGE_DIRECT_UPLOAD_ABANDON_S", 6 * 3600)))


def reconcile_direct_uploads(now: datetime | None = None) -> Reconciled:
    """Look at every quiet direct upload still open; returns how many became done/abandoned."""
    now = now or timezone.now()
    outcome = Reconciled()
    quiet = UploadTask.objects.select_related("service").filter(
        to_provider=True, state=UploadTask.State.UPLOADING, updated_at__lt=now - QUIET)
    for task in quiet.order_by("updated_at")[:500]:
        try:
            details = _stored(task)
        except (StorageError, ProviderNotConfigured):
            logger.warning("direct upload %s: the provider could not be asked", task.pk)
            continue
        if details is not None and record_done(task, details, replaced=False).state == \
                UploadTask.State.DONE:
            outcome.done += 1
        elif task.updated_at < now - abandon_after():
            abandon(task)
            outcome.abandoned += 1
    return outcome


def _stored(task: UploadTask) -> FileDetails | None:
    """The file at the task's path if it is this upload's: written after the task was opened,
    with its size (a preprocessed image may have another)."""
    try:
        details = fetch_details(storage_client(task.service), task.target_path)
    except NotFound:
        return None
    info = details.info
    if info.type == "folder":
        return None
    if not task.options.get("gmkerl") and info.size != task.size:
        return None
    if info.date is not None and info.date < task.created_at - CLOCK_SLACK:
        return None  # the file that was there before
    return details


def abandon(task: UploadTask) -> None:
    """Show the task as abandoned and cancel its provider task (best effort: the provider
    drops unfinished tasks after 24 hours anyway)."""
    changed = UploadTask.objects.filter(pk=task.pk, state=UploadTask.State.UPLOADING).update(
        state=UploadTask.State.ABANDONED, finished_at=timezone.now(),
        error=gettext("The browser stopped sending this upload and never reported it."))
    if changed:
        cancel_provider_task(task)


def cancel_provider_task(task: UploadTask) -> bool:
    """DELETE the provider's unfinished task of a direct upload (the browser is never given a
    DELETE signature: it would delete the file at the path too). False when there was none or
    the provider could not be reached."""
    if not (task.to_provider and task.uuid):
        return False
    try:
        cancel_task(storage_client(task.service), task.target_path, task.uuid)
    except (StorageError, ProviderNotConfigured) as error:
        logger.info("direct upload %s: provider task %s not cancelled: %s",
                    task.pk, task.uuid, error)
        return False
    return True
