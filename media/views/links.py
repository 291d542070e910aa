"""Links from media pages into the storage file browser (by its public URL names)."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import NoReverseMatch, reverse

from console.models import Service


@dataclass(frozen=True)
class PathLinks:
    path: str
    file_url: str | None
    folder_url: str | None


def _url(name: str, service: Service, path: str) -> str | None:
    try:
        base = reverse(name)
    except NoReverseMatch:
        return None
    return f"{base}?{urlencode({'service': service.name, 'path': path})}"


def storage_links(service: Service, path: str) -> PathLinks:
    """The file's page and its folder in the file browser (None where storage has none)."""
    folder = posixpath.dirname(path) or "/"
    return PathLinks(path=path, file_url=_url("storage:file", service, path),
                     folder_url=_url("storage:index", service, folder))


def output_links(service: Service, path: str, *, written: bool,
                 maybe_written: bool) -> PathLinks:
    """Links for a job's `save_as`: the file only when the job wrote it; its folder too when
    the output may exist (no answer, interrupted), so people can look; neither when the
    provider refused the job, since nothing was written and a link would lead nowhere."""
    links = storage_links(service, path)
    if written:
        return links
    return PathLinks(path=path, file_url=None,
                     folder_url=links.folder_url if maybe_written else None)
