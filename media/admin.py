"""Read-only admin list of media jobs; jobs are run from the media pages only."""

from __future__ import annotations

from django.contrib import admin

from backoffice.admin import ReadOnlyAdminMixin
from media.models import ProcessingJob


@admin.register(ProcessingJob)
class ProcessingJobAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[ProcessingJob]):
    """Every field is what was asked and what the provider answered: nothing to edit."""

    list_display = ("pk", "kind", "state", "error_kind", "save_as", "requested_by", "created_at",
                    "duration_ms")
    list_filter = ("kind", "state", "error_kind")
    search_fields = ("save_as", "request_id")
    date_hierarchy = "created_at"
