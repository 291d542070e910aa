"""Media-processing records: the permissions of the pages, and one row per provider call."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# The permissions' full names, for the pages' guards and the storage file actions.
ACCESS_PERMISSION = "media.access_media"
RUN_PERMISSION = "media.run_media_jobs"


class Access(models.Model):
    """Holds the permissions of the Media processing pages that belong to no single model.

    Not a table: Django keeps permissions per model, so this unmanaged model gives them a home.
    """

    class Meta:
        managed = False
        default_permissions = ()
        verbose_name = _("Media processing access")
        permissions = [
            ("access_media", _("Can open the media-processing pages")),
            ("run_media_jobs", _("Can run media-processing jobs")),
        ]

    def __str__(self) -> str:
        return str(self._meta.verbose_name)


class ReadableJSONEncoder(DjangoJSONEncoder):
    """Keeps non-ASCII paths as they are (not `\\uXXXX`) where JSON is stored as text (SQLite),
    so that searching the job list for a Chinese file name finds it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["ensure_ascii"] = False
        super().__init__(*args, **kwargs)


class JobKind(models.TextChoices):
    """The provider's five synchronous endpoints, one kind each."""

    CONCAT = "concat", _("Concatenate")
    CLIP = "clip", _("Clip")
    SNAPSHOT = "snapshot", _("Snapshot")
    PLAYLIST_INFO = "m3u8_meta", _("Playlist info")
    MEDIA_INFO = "av_meta", _("Audio/video info")


class JobState(models.TextChoices):
    """`running` is written before the call; the three others are final and never change.

    `no_answer` is kept apart from `failed` because a call that got no answer may still have
    written its output at the provider: the person decides whether to run it again.
    """

    RUNNING = "running", _("Running")
    SUCCEEDED = "succeeded", _("Succeeded")
    FAILED = "failed", _("Failed")
    NO_ANSWER = "no_answer", _("No answer")


FINAL_STATES = (JobState.SUCCEEDED, JobState.FAILED, JobState.NO_ANSWER)


class ErrorKind(models.TextChoices):
    """Why a job did not succeed, so that the list can tell a bad request from an outage."""

    REFUSED_LOCALLY = "invalid", _("Refused before sending")
    BAD_REQUEST = "bad_request", _("Request parameter error (400)")
    UNAUTHORIZED = "unauthorized", _("Refused credentials (401)")
    NOT_FOUND = "not_found", _("Source does not exist (404)")
    NOT_MEDIA = "not_media", _("Not a video or playlist")
    SERVER = "server", _("Provider failure (5xx)")
    UNEXPECTED = "unexpected", _("Unexpected answer")
    NO_ANSWER = "no_answer", _("No answer")
    INTERRUPTED = "interrupted", _("Interrupted")


class ProcessingJob(models.Model):
    """One call to the media-processing service: what was asked, by whom, and what came back.

    The row is written (state `running`) before the provider is called and completed by a
    conditional update afterwards, so a crash in between leaves a visible trace rather than
    an output file nobody knows about.
    """

    service = models.ForeignKey(
        "console.Service", verbose_name=_("service"), on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("kind"), max_length=16, choices=JobKind.choices, db_index=True)
    sources = models.JSONField(
        _("sources"), default=list, encoder=ReadableJSONEncoder,
        help_text=_("Storage paths read, in the order sent."),
    )
    save_as = models.CharField(_("save as"), max_length=1024, blank=True)
    parameters = models.JSONField(
        _("parameters"), default=dict, encoder=ReadableJSONEncoder,
        help_text=_("Every other field of the request."),
    )
    state = models.CharField(
        _("state"), max_length=16, choices=JobState.choices, default=JobState.RUNNING,
        db_index=True,
    )
    answer = models.JSONField(
        _("answer"), default=dict, blank=True, encoder=ReadableJSONEncoder,
        help_text=_("The provider's answer as parsed: the result, or the error's fields."),
    )
    error_kind = models.CharField(
        _("error kind"), max_length=16, choices=ErrorKind.choices, blank=True, default=""
    )
    error = models.TextField(_("error"), blank=True)
    http_status = models.PositiveSmallIntegerField(_("HTTP status"), null=True, blank=True)
    request_id = models.CharField(_("request id"), max_length=200, blank=True)
    duration_ms = models.PositiveIntegerField(
        _("call duration (ms)"), null=True, blank=True,
        help_text=_("Time from sending the request to reading the answer."),
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("requested by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="media_jobs",
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("processing job")
        verbose_name_plural = _("processing jobs")
        indexes = [models.Index(fields=["state", "created_at"], name="media_job_state_created")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"

    @property
    def is_final(self) -> bool:
        return self.state in FINAL_STATES

    @property
    def writes_output(self) -> bool:
        """Concat, clip and snapshot write `save_as`; the two info kinds only read."""
        return self.kind in (JobKind.CONCAT, JobKind.CLIP, JobKind.SNAPSHOT)

    @property
    def source(self) -> str:
        """The first (for every kind but concat, the only) source path."""
        return self.sources[0] if self.sources else ""
