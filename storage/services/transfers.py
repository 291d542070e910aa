"""Copy, move and rename of files and folders inside one service's bucket.

The provider copies and moves single files (`x-svc-copy-source` / `x-svc-move-source`), on
its side; a folder is the files below it, so a folder goes file by file in a worker
(`storage.services.folder_transfer`). A rename is a move within the same folder.

Everything the provider would refuse, or would do silently against what staff meant, is
checked first (`plan_transfer`): a path onto itself, a folder into itself or its own
subfolder, a file onto a folder or a folder onto a file, the back-office's kept files, and a
target already there (the provider replaces a file without a word: the page asks first).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from backoffice.security.audit import audited
from console.models import Service
from storage import paths
from storage.client import NotFound, StorageClient
from storage.services import extensions, mirror
from storage.services.connection import storage_client
from storage.services.details import fetch_details
from storage.services.folder_deletion import TreeCount, count_tree
from storage.services.private import is_private

TransferKind = Literal["copy", "move", "rename"]
TRANSFER_KINDS: tuple[TransferKind, ...] = ("copy", "move", "rename")


class TransferRefused(Exception):
    """A copy, move or rename refused before anything was sent. `code` says why:
    `same_path`, `into_itself`, `private_source`, `private_target`, `other_service`,
    `target_is_folder`, `target_is_file`, `parent_is_file`, `rename_elsewhere`."""

    def __init__(self, code: str, path: str) -> None:
        self.code = code
        self.path = path
        super().__init__(f"{code}: {path}")


class TargetExists(Exception):
    """A file is at the target and replacing it was not confirmed."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(f"a file is already at {path}")


@dataclass(frozen=True)
class Plan:
    """A checked copy, move or rename: what the source is, and what is at the target now
    (`target_exists`: a file for a file, a folder for a folder; the others are refused).
    `count` is the folder's content, counted at the provider (None for a file)."""

    service: Service
    kind: TransferKind
    source: str
    target: str
    is_folder: bool
    target_exists: bool
    count: TreeCount | None = None

    @property
    def moves(self) -> bool:
        return self.kind != "copy"


def _kind_at(client: StorageClient, path: str) -> str | None:
    try:
        return client.head(path).type or "file"
    except NotFound:
        return None


def plan_transfer(service: Service, source: str, target: str, kind: TransferKind, *,
                  target_service: Service | None = None,
                  client: StorageClient | None = None) -> Plan:
    """Check a copy, move or rename of `source` to `target` (both paths of `service`'s
    bucket) against the provider's current state. Raises rules.RuleViolation (a malformed
    path), TransferRefused, NotFound (no source) or another StorageError."""
    source = paths.canonical(source, allow_root=False)
    target = paths.canonical(target, allow_root=False)
    if target_service is not None and target_service.pk != service.pk:
        raise TransferRefused("other_service", target)
    if is_private(source):
        raise TransferRefused("private_source", source)
    if is_private(target):
        raise TransferRefused("private_target", target)
    if kind == "rename" and paths.parent_of(source) != paths.parent_of(target):
        raise TransferRefused("rename_elsewhere", target)
    if source == target:
        raise TransferRefused("same_path", target)
    client = client or storage_client(service)
    source_kind = _kind_at(client, source)
    if source_kind is None:
        raise NotFound("no file or directory at that path", code=40400001, status=404)
    is_folder = source_kind == "folder"
    if is_folder and paths.is_within(target, source):
        raise TransferRefused("into_itself", target)
    target_kind = _kind_at(client, target)
    if target_kind is not None and is_folder and target_kind != "folder":
        raise TransferRefused("target_is_file", target)
    if target_kind == "folder" and not is_folder:
        raise TransferRefused("target_is_folder", target)
    parent = paths.parent_of(target)
    if target_kind is None and parent != paths.ROOT and _kind_at(client, parent) == "file":
        raise TransferRefused("parent_is_file", parent)
    count = count_tree(service, source, client=client) if is_folder else None
    return Plan(service, kind, source, target, is_folder, target_kind is not None, count)


def _target(service: Service, path: str) -> str:
    return f"/{service.name}{path}"


def _describe(plan: Plan, **_: object) -> tuple[str, str]:
    replaced = " (replacing the file there)" if plan.target_exists else ""
    return _target(plan.service, plan.source), f"to {plan.target}{replaced}"


def transfer_file(plan: Plan, *, replace: bool = False,
                  client: StorageClient | None = None) -> str:
    """Copy, move or rename one file as planned; returns the target path. TargetExists when
    a file is there and `replace` is False (nothing sent). The mirror follows; a move
    announces the source as deleted (its edge URLs are purged) and a replaced target as
    replaced."""
    if plan.is_folder:
        raise ValueError("a folder goes by start_folder_transfer")
    if plan.target_exists and not replace:
        raise TargetExists(plan.target)
    return _ACTIONS[plan.kind](plan, client=client)


def _run(plan: Plan, client: StorageClient | None) -> str:
    storage = client or storage_client(plan.service)
    if plan.moves:
        storage.move(plan.source, plan.target)
    else:
        storage.copy(plan.source, plan.target)
    if paths.parent_of(plan.target) != paths.ROOT:
        mirror.record_folder(plan.service, paths.parent_of(plan.target))  # made on the way
    mirror.record_details(plan.service, fetch_details(storage, plan.target))
    if plan.moves:
        mirror.record_gone(plan.service, plan.source)
        extensions.send(extensions.file_deleted, plan.service, plan.source,
                        asynchronous=False, moved_to=plan.target)
    if plan.target_exists:
        extensions.send(extensions.file_replaced, plan.service, plan.target)
    return plan.target


@audited("storage", "file.copy", _describe)
def _copy(plan: Plan, *, client: StorageClient | None = None) -> str:
    return _run(plan, client)


@audited("storage", "file.move", _describe)
def _move(plan: Plan, *, client: StorageClient | None = None) -> str:
    return _run(plan, client)


@audited("storage", "file.rename", _describe)
def _rename(plan: Plan, *, client: StorageClient | None = None) -> str:
    return _run(plan, client)


_ACTIONS = {"copy": _copy, "move": _move, "rename": _rename}


def renamed(path: str, name: str) -> str:
    """`path` with its last name replaced (a rename's target); rules.RuleViolation for a
    name that is not one valid segment."""
    return paths.join(paths.parent_of(path), name.strip(), field="file_name")
