"""Media-processing use cases: every call to the provider goes through here and is recorded.

Each use case writes a `ProcessingJob` in state `running` and commits it *before* the
provider is called (persist intent first), then completes it with the answer or the error by
a conditional update, so that a finished job never changes again. The calls are synchronous
(the provider's endpoints are), and none is ever repeated automatically: concat, clip and
snapshot write a file, and whether to try again is the person's decision.

"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from backoffice.annotations import StaffUser
from console.models import Service
from media import paths
from media.client import (
    InvalidMediaRequest,
    MediaClient,
    MediaConnectionError,
    MediaError,
    MediaNotFound,
    MediaProtocolError,
    MediaRequestError,
    MediaServerError,
    MediaUnauthorized,
)
from media.models import ErrorKind, JobKind, JobState, ProcessingJob
from media.services.connection import media_client
from media.texts import says_not_media
from providerkit.json_types import JSONObject

logger = logging.getLogger(__name__)

# A job still `running` after this long lost its web process mid-call (the client's timeout
# is far shorter): the sweep marks it interrupted so nobody waits for it.
STALE_AFTER = timedelta(minutes=15)

Call = Callable[[MediaClient], Any]


# --- the five use cases ----------------------------------------------------------------------


def take_snapshot(
    service: Service,
    source: str,
    save_as: str,
    point: str,
    *,
    size: str | None = None,
    image_format: str | None = None,
    user: StaffUser | None = None,
) -> ProcessingJob:
    """Save the frame at `point` (`HH:MM:SS`) of a video or playlist as an image."""
    parameters: JSONObject = {"point": point}
    if size:
        parameters["size"] = size
    if image_format:
        parameters["format"] = image_format
    return _run(
        service, JobKind.SNAPSHOT, [source], save_as, parameters, user,
        lambda client: client.snapshot(source, save_as, point, size=size or None,
                                       format=image_format or None),
    )


def clip_playlist(
    service: Service,
    m3u8: str,
    save_as: str,
    *,
    keep: bool,
    start: float | int,
    end: float | int,
    by_segment: bool = False,
    user: StaffUser | None = None,
) -> ProcessingJob:
    """Keep (`keep`) or drop the span `[start, end]` of a playlist into a new one.

    The span is seconds, or segment numbers (from 0) when `by_segment`. Only one of the
    provider's `include` / `exclude` is ever sent: when both are given the provider applies
    `include` alone (DECISIONS), which a person would not expect from a form.
    """
    span = [start, end]
    field = "include" if keep else "exclude"
    parameters: JSONObject = {field: [start, end], "index": by_segment}
    return _run(
        service, JobKind.CLIP, [m3u8], save_as, parameters, user,
        lambda client: client.clip(m3u8, save_as, index=by_segment, **{field: span}),
    )


def concatenate(service: Service, m3u8s: Sequence[str], save_as: str, *,
                user: StaffUser | None = None) -> ProcessingJob:
    """Join playlists, in the given order, into `save_as`."""
    sources = list(m3u8s)
    return _run(
        service, JobKind.CONCAT, sources, save_as, {}, user,
        lambda client: client.concat(sources, save_as),
    )


def read_info(service: Service, path: str, *, as_playlist: bool | None = None,
              user: StaffUser | None = None) -> ProcessingJob:
    """Duration and segment points of a playlist, or format and streams of a media file.

    `as_playlist=None` decides by the path (an `.m3u8` name is a playlist).
    """
    if as_playlist is None:
        as_playlist = paths.is_playlist(path)
    if as_playlist:
        return _run(service, JobKind.PLAYLIST_INFO, [path], "", {}, user,
                    lambda client: client.m3u8_meta(path))
    return _run(service, JobKind.MEDIA_INFO, [path], "", {}, user,
                lambda client: client.av_meta(path))


# --- recording -------------------------------------------------------------------------------


def _run(
    service: Service,
    kind: JobKind,
    sources: list[str],
    save_as: str,
    parameters: JSONObject,
    user: StaffUser | None,
    call: Call,
) -> ProcessingJob:
    """Record the job, make the call, record its outcome; returns the job as stored.

    Never raises for the provider's or the request's faults: they are the job's outcome.
    ProviderNotConfigured is raised before anything is recorded (nothing was attempted).
    """
    client = media_client(service)
    # durable: the intent must be committed, not merely written inside a caller's transaction
    # that could roll back after the provider has already written the output.
    with transaction.atomic(durable=True):
        job = ProcessingJob.objects.create(
            service=service,
            kind=kind,
            sources=sources,
            save_as=save_as,
            parameters=parameters,
            requested_by=user if getattr(user, "is_authenticated", False) else None,
        )
    started = time.monotonic()
    try:
        result = call(client)
    except InvalidMediaRequest as error:
        _finish(job, JobState.FAILED, error_kind=ErrorKind.REFUSED_LOCALLY, error=str(error),
                answer={"problems": [dataclasses.asdict(p) for p in error.problems]})
    except MediaError as error:
        _finish(job, *_failure(error), answer=_error_answer(error),
                error=error.message, http_status=error.status or None,
                request_id=error.request_id or "", duration_ms=_elapsed_ms(started))
    except Exception as error:
        # A bug of ours must not leave the job `running` forever; it is re-raised for the log.
        _finish(job, JobState.FAILED, error_kind=ErrorKind.UNEXPECTED,
                error=f"{type(error).__name__}: {error}", duration_ms=_elapsed_ms(started))
        raise
    else:
        _finish(job, JobState.SUCCEEDED, answer=dataclasses.asdict(result),
                request_id=getattr(result, "request_id", None) or "",
                duration_ms=_elapsed_ms(started))
    job.refresh_from_db()
    return job


def _failure(error: MediaError) -> tuple[JobState, ErrorKind]:
    if isinstance(error, MediaConnectionError):
        return JobState.NO_ANSWER, ErrorKind.NO_ANSWER
    # Before the status classes: the provider words "this is not media" as a 400 or a 5xx.
    if says_not_media(error.status, error.message):
        return JobState.FAILED, ErrorKind.NOT_MEDIA
    if isinstance(error, MediaUnauthorized):
        return JobState.FAILED, ErrorKind.UNAUTHORIZED
    if isinstance(error, MediaRequestError):
        return JobState.FAILED, ErrorKind.BAD_REQUEST
    if isinstance(error, MediaNotFound):
        return JobState.FAILED, ErrorKind.NOT_FOUND
    if isinstance(error, MediaServerError):
        return JobState.FAILED, ErrorKind.SERVER
    if isinstance(error, MediaProtocolError):
        return JobState.FAILED, ErrorKind.UNEXPECTED
    return JobState.FAILED, ErrorKind.UNEXPECTED


def _error_answer(error: MediaError) -> JSONObject:
    return {"status": error.status, "status_code": error.status_code, "message": error.message}


def _elapsed_ms(started: float) -> int:
    return max(0, round((time.monotonic() - started) * 1000))


def _finish(job: ProcessingJob, state: JobState, error_kind: ErrorKind | str = "",
            **values: Any) -> bool:
    """Move a running job to its final state; a job already final is left as it is."""
    moved = ProcessingJob.objects.filter(pk=job.pk, state=JobState.RUNNING).update(
        state=state, error_kind=error_kind, finished_at=timezone.now(), **values
    )
    if not moved:
        logger.warning("media job %s was already final; outcome %s not recorded", job.pk, state)
    return bool(moved)


def mark_interrupted_jobs(older_than: timedelta = STALE_AFTER) -> int:
    """Jobs left `running` by a process that died mid-call become `no_answer`.

    Their output may or may not have been written, which is exactly what `no_answer` says;
    the error kind `interrupted` tells them from calls that got no answer in time.
    """
    cutoff = timezone.now() - older_than
    return ProcessingJob.objects.filter(state=JobState.RUNNING, created_at__lt=cutoff).update(
        state=JobState.NO_ANSWER,
        error_kind=ErrorKind.INTERRUPTED,
        finished_at=timezone.now(),
    )
