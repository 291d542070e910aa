"""Read-only admin lists of the storage records; changes go through the storage pages."""

from __future__ import annotations

from django.contrib import admin

from backoffice.admin import ReadOnlyAdminMixin
from storage.models import StoredFile, SyncRun, UploadTask


@admin.register(StoredFile)
class StoredFileAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[StoredFile]):
    list_display = ("path", "kind", "size", "modified_at", "content_type", "has_secret",
                    "last_seen", "deleted_at")
    list_filter = ("kind", "has_secret", ("deleted_at", admin.EmptyFieldListFilter))
    search_fields = ("path",)
    date_hierarchy = "modified_at"


@admin.register(UploadTask)
class UploadTaskAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[UploadTask]):
    list_display = ("target_path", "state", "size", "bytes_sent", "resumable", "created_by",
                    "created_at", "finished_at")
    list_filter = ("state", "resumable")
    search_fields = ("target_path", "original_name")
    exclude = ("lease_token",)


@admin.register(SyncRun)
class SyncRunAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[SyncRun]):
    list_display = ("root", "state", "started_at", "finished_at", "seen", "added", "changed",
                    "gone", "details_read")
    list_filter = ("state",)
