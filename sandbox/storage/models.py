"""Stored files and folders, resumable upload tasks and pending asynchronous deletes.

Other sandbox services never read these tables: they go through `sandbox.storage.store`.
Times are unix seconds on the sandbox clock (floats), never wall-clock datetimes.
"""

from __future__ import annotations

from django.db import models


class Entry(models.Model):
    """A file or a folder. The unique (bucket, parent, name) index serves lookups and listings.

    A file's bytes live in a blob named `blob` under the storage files directory; an overwrite
    writes a new blob and switches the row to it, so a reader holding the old one is unharmed.
    """

    bucket = models.CharField(max_length=64)
    parent = models.CharField(max_length=1024, help_text="normal path of the folder above")
    name = models.CharField(max_length=1024)
    is_folder = models.BooleanField(default=False)
    size = models.BigIntegerField(default=0)
    mime_type = models.CharField(max_length=255, blank=True)
    md5 = models.CharField(max_length=32, blank=True)
    metadata = models.JSONField(default=dict, help_text="x-svc-meta-* names (lowercase) -> values")
    blob = models.CharField(max_length=64, blank=True)
    resumable = models.BooleanField(default=False, help_text="written by a resumable upload")
    created_at = models.FloatField(help_text="last upload of the content (TTL counts from it)")
    modified_at = models.FloatField(help_text="last-modified of listings")
    expires_at = models.FloatField(null=True, blank=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bucket", "parent", "name"],
                                    name="sandbox_storage_entry_path"),
        ]

    def __str__(self) -> str:
        return f"/{self.bucket}{self.path}"

    @property
    def path(self) -> str:
        return f"{self.parent.rstrip('/')}/{self.name}"


class MultipartTask(models.Model):
    """A resumable upload: the file appears only at completion. In order (the default), parts
    arrive one after the other and `next_part_id` follows them; in parallel mode (`disorder`),
    they arrive in any order and at once, each recorded as a MultipartPart."""

    class State(models.TextChoices):
        OPEN = "open"
        COMPLETED = "completed"

    uuid = models.CharField(max_length=36, unique=True)
    bucket = models.CharField(max_length=64)
    path = models.CharField(max_length=2048)
    total_length = models.BigIntegerField(null=True, help_text="unknown until completion when a "
                                                               "parallel upload leaves it out")
    part_count = models.PositiveIntegerField(help_text="0 while the total length is unknown")
    part_size = models.PositiveIntegerField(default=1_048_576)
    disorder = models.BooleanField(default=False, help_text="parallel mode")
    next_part_id = models.IntegerField(default=0, help_text="-1 once every part is stored")
    mime_type = models.CharField(max_length=255)
    metadata = models.JSONField(default=dict)
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    created_at = models.FloatField()
    expires_at = models.FloatField(db_index=True)

    def __str__(self) -> str:
        return f"resumable upload {self.uuid} of /{self.bucket}{self.path}"


class MultipartPart(models.Model):
    """A part received by a parallel upload; the unique index makes a repeat lose at once."""

    task = models.ForeignKey(MultipartTask, on_delete=models.CASCADE, related_name="parts")
    part_id = models.PositiveIntegerField()
    size = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["task", "part_id"],
                                    name="sandbox_storage_multipart_part_once"),
        ]

    def __str__(self) -> str:
        return f"part {self.part_id} of {self.task}"


class PendingDelete(models.Model):
    """An asynchronous delete, carried out by the tick handler once due.

    It deletes the entry only as it was when asked (same blob; a folder still empty), so a file
    uploaded again in between is kept. Deleting the entry earlier drops this row with it.
    """

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="pending_deletes")
    blob = models.CharField(max_length=64, blank=True)
    requested_at = models.FloatField()
    due_at = models.FloatField(db_index=True)

    def __str__(self) -> str:
        return f"delete of {self.entry} due at {self.due_at}"
