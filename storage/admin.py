"""Read-only admin lists of the storage records; changes go through the storage pages."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from storage.models import StoredFile, SyncRun, UploadTask


class ReadOnlyAdmin(admin.ModelAdmin):
    """The mirror and the upload log are written by the provider's answers only."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(StoredFile)
class StoredFileAdmin(ReadOnlyAdmin):
    list_display = ("path", "kind", "size", "modified_at", "content_type", "has_secret",
                    "last_seen", "deleted_at")
    list_filter = ("kind", "has_secret", ("deleted_at", admin.EmptyFieldListFilter))
    search_fields = ("path",)
    date_hierarchy = "modified_at"


@admin.register(UploadTask)
class UploadTaskAdmin(ReadOnlyAdmin):
    list_display = ("target_path", "state", "size", "bytes_sent", "resumable", "created_by",
                    "created_at", "finished_at")
    list_filter = ("state", "resumable")
    search_fields = ("target_path", "original_name")
    exclude = ("lease_token",)


@admin.register(SyncRun)
class SyncRunAdmin(ReadOnlyAdmin):
    list_display = ("root", "state", "started_at", "finished_at", "seen", "added", "changed",
                    "gone", "details_read")
    list_filter = ("state",)
