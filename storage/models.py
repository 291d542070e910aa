"""Records of the object storage app: the bucket mirror, uploads in flight and mirror runs.

The provider is the source of truth for files; `StoredFile` is a mirror kept by the sync job
and by every change made through the back-office, so that pages and reports can read the bucket
without calling the provider. `UploadTask` is local state: an upload's intent is saved before
the provider is called, and its progress after every part, so a crash resumes where it stopped.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Access(models.Model):
    """Holds the permissions of the Object storage pages that belong to no single model.

    Not a table: Django keeps permissions per model, so this unmanaged model gives them a home.
    """

    class Meta:
        managed = False
        default_permissions = ()
        verbose_name = _("Object storage access")
        permissions = [
            ("access_storage", _("Can open the storage pages")),
            ("manage_files", _("Can upload, change and delete files and folders")),
        ]

    def __str__(self) -> str:
        return str(self._meta.verbose_name)


# Paths are bucket-relative and canonical (`/photos/a.jpg`, see storage.rules.normalise_path).
PATH_LENGTH = 1024


class StoredFile(models.Model):
    """One file or folder of the bucket as last seen at the provider.

    `md5`, `metadata` and `has_secret` need extra calls (HEAD and GET headers), so they may lag
    behind the listing fields: `details_at` says when they were read (None: not yet). The
    secret's value is never stored here, only whether there is one.
    """

    class Kind(models.TextChoices):
        FILE = "file", _("file")
        FOLDER = "folder", _("folder")

    service = models.ForeignKey(
        "console.Service", verbose_name=_("service"), on_delete=models.PROTECT, related_name="+")
    path = models.CharField(_("path"), max_length=PATH_LENGTH)
    parent = models.CharField(_("folder"), max_length=PATH_LENGTH)
    name = models.CharField(_("name"), max_length=PATH_LENGTH)
    kind = models.CharField(_("type"), max_length=6, choices=Kind.choices, default=Kind.FILE)
    size = models.BigIntegerField(_("size"), default=0)
    modified_at = models.DateTimeField(_("modified"), null=True, blank=True)
    md5 = models.CharField(_("MD5"), max_length=32, blank=True)
    content_type = models.CharField(_("content type"), max_length=255, blank=True)
    metadata = models.JSONField(_("metadata"), default=dict, blank=True)
    has_secret = models.BooleanField(_("has a secret"), null=True, blank=True)
    details_at = models.DateTimeField(_("details read at"), null=True, blank=True)
    last_seen = models.DateTimeField(_("last seen"))
    deleted_at = models.DateTimeField(_("gone since"), null=True, blank=True)

    class Meta:
        verbose_name = _("stored file")
        verbose_name_plural = _("stored files")
        ordering = ["path"]
        indexes = [models.Index(fields=["last_seen"]),
                   models.Index(fields=["service", "parent"], name="stored_file_folder")]
        constraints = [models.UniqueConstraint(fields=["service", "path"],
                                               name="stored_file_once_a_service")]

    def __str__(self) -> str:
        return self.path

    @property
    def is_folder(self) -> bool:
        return self.kind == self.Kind.FOLDER


class UploadTask(models.Model):
    """One file on its way to the bucket: a local copy, a target path and the progress made.

    States: queued -> uploading -> done | failed | cancelled; failed -> queued (resume).
    `lease_token`/`lease_until` mark the worker that holds the task: a task whose lease ran out
    (its worker died) may be taken over, and a worker that lost its lease stops at once.
    `remove_source` is True for the back-office's own copies (browser uploads), False when the
    source is someone's file (the upload command), which must never be deleted.
    """

    class State(models.TextChoices):
        QUEUED = "queued", _("queued")
        UPLOADING = "uploading", _("uploading")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")
        CANCELLED = "cancelled", _("cancelled")
        # A direct upload the browser started and never reported, past the configured time
        # (storage.services.direct_reconcile); the provider's unfinished task is cancelled.
        ABANDONED = "abandoned", _("abandoned")

    service = models.ForeignKey(
        "console.Service", verbose_name=_("service"), on_delete=models.PROTECT, related_name="+")
    source = models.CharField(_("local file"), max_length=PATH_LENGTH)
    remove_source = models.BooleanField(_("remove the local file when done"), default=True)
    original_name = models.CharField(_("original name"), max_length=PATH_LENGTH)
    target_path = models.CharField(_("target path"), max_length=PATH_LENGTH)
    size = models.BigIntegerField(_("size"))
    md5 = models.CharField(_("MD5"), max_length=32, blank=True)
    content_type = models.CharField(_("content type"), max_length=255, blank=True)
    resumable = models.BooleanField(_("sent in parts"), default=False)
    # Sent by the browser part by part through whichever web node takes each request, with
    # no copy anywhere on our side (`source` is empty); no worker runs these.
    direct = models.BooleanField(_("sent from the browser"), default=False)
    # Sent by the browser straight to the provider with requests the back-office signed
    # (storage.services.direct_uploads): no byte passes through a web node.
    to_provider = models.BooleanField(_("sent straight to the provider"), default=False)
    # Bytes of every part but the last (direct uploads choose theirs; a worker's task in parallel
    # mode 4 MiB; 1 MiB otherwise).
    part_size = models.PositiveIntegerField(_("part size"), default=1_048_576)
    # Parts of a direct upload the browser reported as taken by the provider, in any order;
    # a reloaded page sends only the others (the provider has no call that lists them).
    parts_done = models.JSONField(_("parts received"), default=list, blank=True)
    options = models.JSONField(_("options"), default=dict, blank=True)
    uuid = models.CharField(_("provider task"), max_length=36, blank=True)
    next_part = models.IntegerField(_("next part"), default=0)
    bytes_sent = models.BigIntegerField(_("bytes sent"), default=0)
    # The provider task was opened in parallel mode: `next_part` is then the lowest part not
    # yet confirmed, and a resume goes on sending several parts at once.
    parallel = models.BooleanField(_("parts sent at once"), default=False)
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.QUEUED, db_index=True
    )
    error = models.TextField(_("error"), blank=True)
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    result = models.JSONField(_("result"), default=dict, blank=True)
    lease_token = models.CharField(max_length=32, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("uploaded by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="storage_uploads",
    )
    created_at = models.DateTimeField(pgettext_lazy("storage", "created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("upload")
        verbose_name_plural = _("uploads")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.original_name} -> {self.target_path}"

    @property
    def percent(self) -> int:
        if self.size <= 0:
            return 100 if self.state == self.State.DONE else 0
        return min(100, int(self.bytes_sent * 100 / self.size))

    @property
    def is_resumable_by_user(self) -> bool:
        return self.state == self.State.FAILED

    @property
    def is_active(self) -> bool:
        return self.state in (self.State.QUEUED, self.State.UPLOADING)

    @property
    def target_folder(self) -> str:
        parent = self.target_path.rsplit("/", 1)[0]
        return parent or "/"


class SyncRun(models.Model):
    """One walk of a folder tree that mirrors it into StoredFile.

    Only a completed walk marks rows as gone: a walk cut short has not seen everything.
    """

    class State(models.TextChoices):
        RUNNING = "running", _("running")
        COMPLETED = "completed", _("completed")
        FAILED = "failed", _("failed")

    service = models.ForeignKey(
        "console.Service", verbose_name=_("service"), on_delete=models.PROTECT, related_name="+")
    root = models.CharField(_("folder"), max_length=PATH_LENGTH)
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.RUNNING
    )
    started_at = models.DateTimeField(_("started"))
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    folders = models.PositiveIntegerField(_("folders walked"), default=0)
    seen = models.PositiveIntegerField(_("entries seen"), default=0)
    added = models.PositiveIntegerField(_("added"), default=0)
    changed = models.PositiveIntegerField(_("changed"), default=0)
    gone = models.PositiveIntegerField(_("gone"), default=0)
    details_read = models.PositiveIntegerField(_("details read"), default=0)
    # The service's files in the mirror once a walk completed: the dashboard's figure, which
    # would otherwise count every row of the mirror (storage.dashboard).
    files = models.PositiveBigIntegerField(_("files in the mirror"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)

    class Meta:
        verbose_name = _("mirror run")
        verbose_name_plural = _("mirror runs")
        ordering = ["-started_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.root} @ {self.started_at:%Y-%m-%d %H:%M}"


class UsageSnapshot(models.Model):
    """The bucket's usage as last read on one local day: the dashboard's 14-day chart.

    One row a day, overwritten by every fresh reading of that day (the dashboard's, at most
    every five minutes, and the hourly job's), so a day keeps its latest figure.
    """

    service = models.ForeignKey(
        "console.Service", verbose_name=_("service"), on_delete=models.PROTECT, related_name="+")
    day = models.DateField(_("day"))
    used_bytes = models.BigIntegerField(_("bytes used"))
    taken_at = models.DateTimeField(_("read at"))

    class Meta:
        verbose_name = _("bucket usage of a day")
        verbose_name_plural = _("bucket usage by day")
        ordering = ["-day"]
        constraints = [models.UniqueConstraint(fields=["service", "day"],
                                               name="usage_once_a_day_a_service")]

    def __str__(self) -> str:
        return f"{self.day}: {self.used_bytes} bytes"


class LeasedJob(models.Model):
    """What a folder job's sweep needs (storage.services.job_lease): the lease of the worker
    running it (renewed by a heartbeat; a dead worker's runs out and the sweep hands the job to
    another), how many runs took it, and the paths deleted whose edge URLs are not yet
    announced for purging (kept here so that a run that dies does not lose them)."""

    queued_at = models.DateTimeField(_("sent to the workers"), default=timezone.now,
                                     editable=False)
    lease_token = models.CharField(_("lease"), max_length=32, blank=True, editable=False)
    lease_until = models.DateTimeField(_("lease until"), null=True, blank=True, editable=False)
    claims = models.PositiveIntegerField(_("runs"), default=0, editable=False)
    purge_paths = models.JSONField(_("paths to purge"), default=list, blank=True, editable=False)

    class Meta:
        abstract = True


class FolderDeletion(LeasedJob):
    """A folder deleted with everything in it, by a worker: files first, then the folders
    from the deepest up, then the folder itself. `files_total` is the count staff were asked
    about; `files_done` and `folders_done` are the progress the page shows.

    States: queued -> running -> completed | failed. A failed run leaves what it had not
    reached yet; it can be asked for again."""

    class State(models.TextChoices):
        QUEUED = "queued", _("waiting for a worker")
        RUNNING = "running", _("deleting")
        COMPLETED = "completed", _("completed")
        FAILED = "failed", _("failed")

    service = models.ForeignKey(
        "console.Service", verbose_name=_("service"), on_delete=models.PROTECT, related_name="+")
    path = models.CharField(_("folder"), max_length=PATH_LENGTH)
    state = models.CharField(_("state"), max_length=10, choices=State.choices,
                             default=State.QUEUED)
    files_total = models.PositiveIntegerField(_("files when asked"), default=0)
    files_done = models.PositiveIntegerField(_("files deleted"), default=0)
    folders_done = models.PositiveIntegerField(_("folders deleted"), default=0)
    error = models.TextField(_("error"), blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("asked by"),
                                   on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("folder deletion")
        verbose_name_plural = _("folder deletions")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.path

    @property
    def is_final(self) -> bool:
        return self.state in (self.State.COMPLETED, self.State.FAILED)


class FolderTransfer(LeasedJob):
    """A folder copied or moved with everything in it, by a worker, file by file (the
    provider copies and moves single files only).

    A move copies every file first and deletes the source's files only when every copy was
    confirmed (docs/decisions.md, "Copy, move and rename"): a failed move leaves the source
    complete. `failures` holds one `{path, ...}` per file that could not be copied (or, in a
    move's second phase, deleted), read back into the provider's error for the page.

    States: queued -> running -> completed | failed."""

    class Kind(models.TextChoices):
        COPY = "copy", pgettext_lazy("transfer", "copy")
        MOVE = "move", pgettext_lazy("transfer", "move")

    class State(models.TextChoices):
        QUEUED = "queued", _("waiting for a worker")
        RUNNING = "running", pgettext_lazy("transfer", "in progress")
        COMPLETED = "completed", _("completed")
        FAILED = "failed", _("failed")

    service = models.ForeignKey(
        "console.Service", verbose_name=_("service"), on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("action"), max_length=4, choices=Kind.choices)
    source = models.CharField(_("folder"), max_length=PATH_LENGTH)
    target = models.CharField(pgettext_lazy("a copy or move", "target"), max_length=PATH_LENGTH)
    replace = models.BooleanField(_("replace files already at the target"), default=False)
    state = models.CharField(_("state"), max_length=10, choices=State.choices,
                             default=State.QUEUED)
    files_total = models.PositiveIntegerField(_("files"), default=0)
    files_copied = models.PositiveIntegerField(_("files copied"), default=0)
    files_removed = models.PositiveIntegerField(_("source files deleted"), default=0)
    failures = models.JSONField(_("failures"), default=list, blank=True)
    # Where a run that died stopped: the last source file whose copy was confirmed (saved with
    # the progress), and whether every copy was (a move's deleting phase had begun).
    copied_up_to = models.CharField(max_length=PATH_LENGTH, blank=True, editable=False)
    copied_all = models.BooleanField(default=False, editable=False)
    error = models.TextField(_("error"), blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("asked by"),
                                   on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("folder copy or move")
        verbose_name_plural = _("folder copies and moves")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.kind} {self.source} -> {self.target}"

    @property
    def is_final(self) -> bool:
        return self.state in (self.State.COMPLETED, self.State.FAILED)

    @property
    def is_move(self) -> bool:
        return self.kind == self.Kind.MOVE
