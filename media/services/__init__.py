"""Media-processing use cases: every call to the provider goes through here and is recorded.

Pages, tasks and other apps import from here: `jobs` (snapshot, clip, concat, info, each a
recorded ProcessingJob; the sweep of interrupted jobs), `counts` (the counts of the home page
and the dashboard tile) and `connection` (the configured client).
"""

from backoffice.operations.provider import ProviderNotConfigured
from media.client import MediaError
from media.services.connection import media_client
from media.services.counts import jobs_today_by_state, start_of_today
from media.services.jobs import (
    STALE_AFTER,
    clip_playlist,
    concatenate,
    mark_interrupted_jobs,
    read_info,
    take_snapshot,
)

__all__ = [
    "STALE_AFTER",
    "MediaError",
    "ProviderNotConfigured",
    "clip_playlist",
    "concatenate",
    "jobs_today_by_state",
    "mark_interrupted_jobs",
    "media_client",
    "read_info",
    "start_of_today",
    "take_snapshot",
]
