"""How other apps hook into object storage without knowing its internals.

Both hooks are re-exported by `storage.services`, the only module other apps may import.

Signals (django.dispatch), all sent with `sender=StoredFile` and keywords `service` (the
`console.models.Service` whose bucket changed) and `path` (the canonical bucket path, e.g.
`/videos/a.mp4`), after the provider has confirmed the change. They are sent
with `send_robust`: a failing receiver is logged and never undoes or fails the change itself,
because the provider has already done it.

- `file_uploaded(path, size, content_type, replaced)`: a file was written by an upload.
  `replaced` is True when a file of that path existed before.
- `file_replaced(path)`: an upload overwrote an existing file (sent after `file_uploaded`);
  cached copies of its URL are now stale.
- `file_deleted(path, asynchronous)`: a file was deleted; with `asynchronous` the provider
  accepted the request and removes the file shortly after. A file moved or renamed away is
  deleted at its old path (its URLs now answer 404): the signal then also carries
  `moved_to`, the new path. A copy or move onto an existing file sends `file_replaced` for
  the target.
- `files_deleted(path, paths, moved_to)` and `files_replaced(path, paths)`: the files of a
  folder job (a folder deleted, copied or moved with everything in it), announced together, a
  few hundred at a time, so that their edge URLs are purged in as few requests as the purge
  API allows rather than one each; `path` is then the job's folder and `moved_to` the folder
  a move took them to (None for a deletion). A folder job sends these, never the single
  `file_deleted` / `file_replaced`, for its files.
- `file_metadata_changed(path, option)`: metadata (including the TTL or the secret) changed;
  `option` is `merge`, `replace` or `delete`.

File actions: `register_file_action(label, url_name, applies_to)` adds a link to every row of
the file browser (and to the file page) whose file matches `applies_to(path, content_type)`.
The link is `reverse(url_name)?service=<name>&path=<path>`: the target view reads the service
and the file's path from the `service` and `path` query parameters and does its own permission
checks. Register from your AppConfig.ready().
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlencode

from django.dispatch import Signal
from django.urls import NoReverseMatch, reverse
from django.utils.functional import Promise

from backoffice.annotations import RequestUser
from console.models import Service

logger = logging.getLogger(__name__)

file_uploaded = Signal()
file_replaced = Signal()
file_deleted = Signal()
file_metadata_changed = Signal()
files_deleted = Signal()
files_replaced = Signal()


def send(signal: Signal, service: Service, path: str, **fields: object) -> None:
    """Send `signal` for `path` of `service`, logging (never raising) a receiver's failure."""
    from storage.models import StoredFile

    for receiver, outcome in signal.send_robust(
        sender=StoredFile, service=service, path=path, **fields
    ):
        if isinstance(outcome, Exception):
            logger.error(
                "storage signal receiver %r failed for %s",
                receiver,
                path,
                exc_info=(type(outcome), outcome, outcome.__traceback__),
            )


AppliesTo = Callable[[str, str | None], bool]


@dataclass(frozen=True)
class FileAction:
    """An extra link of the file browser. `permission`, when set, hides the link from users
    who lack it (the target view must still check it)."""

    label: str | Promise
    url_name: str
    applies_to: AppliesTo
    permission: str | None = None

    def url_for(self, service: Service, path: str) -> str:
        return f"{reverse(self.url_name)}?{urlencode({'service': service.name, 'path': path})}"


_actions: list[FileAction] = []


def register_file_action(
    label: str | Promise,
    url_name: str,
    applies_to: AppliesTo,
    *,
    permission: str | None = None,
) -> FileAction:
    """Add an action to matching file rows; registering the same url_name again replaces it.

    `applies_to(path, content_type)` must be cheap and must not call the provider: it runs for
    every row of a listing page. `content_type` is None when the listing did not say.
    """
    action = FileAction(label, url_name, applies_to, permission)
    _actions[:] = [known for known in _actions if known.url_name != url_name]
    _actions.append(action)
    return action


def unregister_file_action(url_name: str) -> None:
    _actions[:] = [known for known in _actions if known.url_name != url_name]


def registered_file_actions() -> tuple[FileAction, ...]:
    return tuple(_actions)


def file_actions_for(
    service: Service, path: str, content_type: str | None, user: RequestUser
) -> list[tuple[str, str]]:
    """(label, url) of every registered action that applies to the file and the user."""
    links: list[tuple[str, str]] = []
    for action in _actions:
        if action.permission and not user.has_perm(action.permission):
            continue
        try:
            if not action.applies_to(path, content_type):
                continue
            links.append((str(action.label), action.url_for(service, path)))
        except NoReverseMatch:
            logger.error("file action %s names an unknown URL", action.url_name)
        except Exception:
            # One app's broken hook must not take the file browser down.
            logger.exception("file action %s failed for %s", action.url_name, path)
    return links
