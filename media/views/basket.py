"""The list of playlists to concatenate, kept in the session while a person gathers them.

The file browser's "Concatenate" link adds its playlist here, so playlists from different
folders can be collected one by one; the Concatenate page puts them in order (up, down,
remove: plain form buttons, no script needed) and joins them.
"""

from __future__ import annotations

from dataclasses import dataclass

from backoffice.annotations import StaffRequest
from console.models import Service
from media import paths
from media.forms import MAX_PLAYLISTS
from media.models import JobKind, ProcessingJob

SESSION_KEY = "media:concat_playlists"
MAX_ROW_LENGTH = paths.MAX_PATH_LENGTH + 10
KNOWN_PLAYLISTS_SHOWN = 50


@dataclass(frozen=True)
class Row:
    index: int  # position in the submitted list, which the move buttons name
    number: int  # shown to people, from 1
    value: str
    first: bool
    last: bool


def _clean(rows: list[str]) -> list[str]:
    """Non-empty rows, each cut to a sane length, at most twice the joinable number."""
    kept = [row.strip()[:MAX_ROW_LENGTH] for row in rows if row.strip()]
    return kept[: MAX_PLAYLISTS * 2]


def rows(request: StaffRequest) -> list[str]:
    stored = request.session.get(SESSION_KEY, [])
    return _clean([str(row) for row in stored]) if isinstance(stored, list) else []


def replace(request: StaffRequest, new_rows: list[str]) -> None:
    request.session[SESSION_KEY] = _clean(new_rows)


def add(request: StaffRequest, path: str) -> None:
    """Add a playlist at the end, unless it is already in the list."""
    current = rows(request)
    if path not in current:
        replace(request, [*current, path])


def apply(action: str, submitted: list[str]) -> list[str]:
    """`up:N`, `down:N`, `remove:N` (N: a submitted row's index), `clear`; anything else
    just keeps the rows as typed. Blank rows are dropped afterwards."""
    result = list(submitted)
    verb, _sep, raw_index = action.partition(":")
    if verb == "clear":
        return []
    if raw_index.isdigit() and int(raw_index) < len(result):
        index = int(raw_index)
        if verb == "up" and index > 0:
            result[index - 1], result[index] = result[index], result[index - 1]
        elif verb == "down" and index + 1 < len(result):
            result[index + 1], result[index] = result[index], result[index + 1]
        elif verb == "remove":
            del result[index]
    return _clean(result)


def display_rows(current: list[str]) -> list[Row]:
    """The rows to show, plus an empty one at the end to type another path into."""
    shown = [*current, ""]
    filled = len(current)
    return [
        Row(index=index, number=index + 1, value=value, first=index == 0,
            last=index >= filled - 1)
        for index, value in enumerate(shown)
    ]


def known_playlists(service: Service | None) -> list[str]:
    """Playlists of the service seen in recent jobs, offered as suggestions while typing."""
    seen: list[str] = []
    if service is None:
        return seen
    jobs = ProcessingJob.objects.filter(
        service=service, kind__in=(JobKind.CONCAT, JobKind.CLIP, JobKind.PLAYLIST_INFO)
    ).only("sources", "save_as")[:200]
    for job in jobs:
        for path in [*job.sources, job.save_as]:
            if path and paths.is_playlist(path) and path not in seen:
                seen.append(path)
    return seen[:KNOWN_PLAYLISTS_SHOWN]
