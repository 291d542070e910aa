"""The purge of a folder job's files: announced together, not one signal (and one purge
request) per file.

A folder job deletes its files in steps of PROGRESS_EVERY. Before a step, its paths are added
to the job's `purge_paths` (in the row, under the lease): a run that dies mid-step has them
there for the run that takes over, so no deleted file misses its purge. Once the list holds
ANNOUNCE_EVERY paths, and at the end, they are announced with `files_deleted` (the delivery
app records as few purge requests as its 600-URLs limit allows) and the list is emptied, in
one transaction. A path announced whose delete was refused is purged all the same: a purge of
a file still there only refreshes the edge's copy.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from console.models import Service
from storage.services import extensions
from storage.services.job_lease import Lease

# A file has at least one URL (one per domain and image version): 600 paths make at least
# one full purge request, and the list in the row stays small.
ANNOUNCE_EVERY = 600


class PurgeList:
    def __init__(self, lease: Lease, service: Service, folder: str, kept: list[str],
                 still_there: Iterable[str] = (), moved_to: str | None = None) -> None:
        """`kept`: the row's list, left by a run that died; those of its paths the new run
        still finds at the provider were not deleted yet and come again in their step."""
        there = set(still_there)
        self.lease, self.service, self.folder, self.moved_to = lease, service, folder, moved_to
        self.paths = [path for path in kept if path not in there]

    def before_deleting(self, paths: list[str]) -> None:
        self.paths.extend(paths)
        self.lease.write(purge_paths=self.paths)

    def after_deleting(self) -> None:
        if len(self.paths) >= ANNOUNCE_EVERY:
            self.announce()

    def announce(self) -> None:
        if not self.paths:
            return
        with transaction.atomic():
            extensions.send(extensions.files_deleted, self.service, self.folder,
                            paths=list(self.paths), moved_to=self.moved_to)
            self.lease.write(purge_paths=[])
        self.paths = []


def announce_replaced(service: Service, folder: str, paths: list[str]) -> None:
    """Files of a folder copy or move that replaced files already at the target."""
    if paths:
        extensions.send(extensions.files_replaced, service, folder, paths=paths)
