"""Counts for the metrics endpoint: upload tasks by state."""

from __future__ import annotations

from django.db.models import Count

from storage.models import UploadTask


def uploads_by_state() -> dict[str, int]:
    return dict(UploadTask.objects.values_list("state").annotate(n=Count("pk")).order_by())
