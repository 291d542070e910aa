"""Mirror storage of a CDN service (cdn/advanced.md, DECISIONS.md): kept here, published to the
console with `PUT /buckets/mirror`.

The public docs describe three states and one rule about leaving "on": switching it off at once
could flood the origin, so it goes through "paused" first (no new copies, storage still asked
first). Staff therefore move it off -> on -> paused -> off, and may resume a paused mirror
(paused -> on). The record is written first and then published, as origins are: a failing
call leaves it "not published" with the console's answer, and a retry sends what it holds.

"Files migrated" comes from the storage app's listing of the target bucket, which console
cannot import (storage builds on console): the storage app registers a `FileCount` at start
(`register_file_count`), as it may register its credential check. Without one the page says
the count is unknown.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from django.db import transaction
from django.utils import timezone

from backoffice.annotations import StaffUser
from backoffice.models import AuditOutcome
from backoffice.security.audit import record
from console.models import MirrorStatus, PublishState, Service, ServiceKind
from console.services.connection import console_client
from console.services.publishing import FAILURES

# Where each state may go next (the docs: "on" is left through "paused").
MOVES: dict[str, tuple[str, ...]] = {
    MirrorStatus.OFF: (MirrorStatus.ON,),
    MirrorStatus.ON: (MirrorStatus.PAUSED,),
    MirrorStatus.PAUSED: (MirrorStatus.OFF, MirrorStatus.ON),
}


class MirrorMoveRefused(ValueError):
    """The state cannot go there from where it is (on -> off skips the pause), or the
    service is not a CDN service."""


class FileCount(Protocol):
    def __call__(self, bucket: Service, since: datetime) -> int:
        """How many files the listing of storage service `bucket` holds that were written at
        or after `since`."""
        ...


_counters: list[FileCount] = []


def register_file_count(counter: FileCount) -> None:
    """Set the count of files migrated (the storage app at start; tests)."""
    _counters[:] = [counter]


def moves(service: Service) -> tuple[str, ...]:
    """The states the service's mirror may be moved to now."""
    return MOVES.get(service.mirror_status, ()) if service.is_cdn else ()


def migrated_files(service: Service) -> int | None:
    """Files of the target bucket's listing written since the migration began; None when
    nothing can say (no counter registered, or the mirror never ran)."""
    if not _counters or service.mirror_bucket is None or service.mirror_since is None:
        return None
    return _counters[0](service.mirror_bucket, service.mirror_since)


def publish_mirror(service: Service, user: StaffUser | None) -> bool:
    """Send what the record holds to the console; True when it took it."""
    bucket = service.mirror_bucket.name if service.mirror_bucket is not None else None
    try:
        console_client().put_mirror(service.name, service.mirror_status, bucket,
                                    service.mirror_cache_seconds)
    except FAILURES as error:
        service.mirror_state, service.mirror_error = PublishState.FAILED, str(error)[:500]
        outcome, summary = AuditOutcome.FAILED, f"mirror storage not published: {error}"
    else:
        service.mirror_state, service.mirror_error = PublishState.PUBLISHED, ""
        outcome, summary = AuditOutcome.OK, (
            f"mirror storage published: {service.mirror_status}"
            f"{f' into {bucket}' if bucket else ''}")
    service.save(update_fields=["mirror_state", "mirror_error", "updated_at"])
    record("console", "mirror.publish", target=service, summary=summary, outcome=outcome,
           user=user)
    return outcome == AuditOutcome.OK


def move_mirror(service: Service, status: str, bucket: Service | None,
                cache_seconds: int | None, user: StaffUser) -> bool:
    """Record the new state (with its bucket and cache time) and publish it; True when the
    console took it. MirrorMoveRefused for a move MOVES does not allow, a bucket that is not
    a storage service, or "on" without one."""
    if status not in moves(service):
        raise MirrorMoveRefused(f"{service.mirror_status} -> {status}")
    if bucket is not None and bucket.kind != ServiceKind.STORAGE:
        raise MirrorMoveRefused(f"{bucket.name} is not a storage service")
    if status == MirrorStatus.ON and bucket is None:
        raise MirrorMoveRefused("mirror storage needs a storage service")
    with transaction.atomic():
        began = service.mirror_status == MirrorStatus.OFF
        service.mirror_status = status
        if bucket is not None:
            if bucket != service.mirror_bucket:
                began = True  # another bucket: its own count
            service.mirror_bucket = bucket
        if cache_seconds is not None:
            service.mirror_cache_seconds = cache_seconds
        if status == MirrorStatus.ON and began:
            # Whole seconds: the listing's modification times are (a copy made within the
            # second of switching on must count).
            service.mirror_since = timezone.now().replace(microsecond=0)
        service.mirror_state, service.updated_by = PublishState.PENDING, user
        service.save()
    record("console", "mirror.move", target=service, user=user,
           summary=f"mirror storage {status}"
           f"{f' into {service.mirror_bucket.name}' if service.mirror_bucket else ''}"
           f"{f', cache {service.mirror_cache_seconds} s' if service.mirror_cache_seconds else ''}")
    return publish_mirror(service, user)
