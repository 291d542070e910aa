"""Figures and chart of the object storage tile on the dashboard (hooks: `figures(user)`,
`chart(user)`)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from backoffice.annotations import RequestUser
from backoffice.operations import soft_cache
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.ui.tiles import DailyChart, Figure, chart_days, per_day
from console.models import Service
from console.services import chosen_service
from storage import rules, services
from storage.models import StoredFile, SyncRun, UploadTask
from storage.services import RetryPolicy, StorageError

# A dashboard must answer fast even when the provider does not: one short try, and a failure
# is remembered for a minute instead of being retried on every visit.
USAGE_TIMEOUT_S = 3.0
FAILURE_KEY = "storage:usage-failed:{}"
FAILURE_MEMORY_S = 60
FILES_KEY = "storage:mirrored-files:{}"
FILES_TTL_S = 60


def bucket_usage_text(service: Service) -> str:
    if soft_cache.read(FAILURE_KEY.format(service.pk)):
        return _("unavailable")
    try:
        client = services.storage_client(
            service, timeout=USAGE_TIMEOUT_S, retry=RetryPolicy(attempts=1))
        used = services.bucket_usage(service, client=client)
    except ProviderNotConfigured:
        return _("not configured")
    except (StorageError, rules.RuleViolation):
        soft_cache.write(FAILURE_KEY.format(service.pk), True, FAILURE_MEMORY_S)
        return _("unavailable")
    return services.size_text(used)


def mirrored_files(service: Service, last_walk: SyncRun | None) -> int:
    """Files in the mirror, as counted when its last walk completed (shown beside it as
    "Mirror refreshed"); counted here, at most once a minute, only before the first walk.

    Counting reads every row of the mirror (2,000,000 files in bench/report_scale.py at ten
    times the data: a quarter of a second), more than the rest of the dashboard, so it is the
    walk's job, in a worker.
    """
    if last_walk is not None and last_walk.files is not None:
        return last_walk.files
    files = soft_cache.read(FILES_KEY.format(service.pk))
    if files is None:
        files = StoredFile.objects.filter(
            service=service, kind=StoredFile.Kind.FILE, deleted_at__isnull=True
        ).count()
        soft_cache.write(FILES_KEY.format(service.pk), files, FILES_TTL_S)
    return int(files)


def uploads(service: Service, state: str) -> str:
    return f"{reverse('storage:uploads')}?{urlencode({'service': service.name, 'state': state})}"


def _service(user: RequestUser) -> Service | None:
    """The service the person last chose in the storage pages (the tile shows that one)."""
    try:
        return chosen_service(user)
    except (ProviderNotConfigured, PermissionDenied):
        return None


def figures(user: RequestUser) -> list[Figure]:
    """Bucket usage, mirrored files, and uploads running or waiting for a person.

    Contract of the hook: figures already translated, each linked to the list behind it; only
    for users who may open the storage pages. The upload list filters one state: "in progress"
    (queued or uploading) links to the uploading ones, which are the ones moving.
    """
    if not user.has_perm("storage.access_storage"):
        return []
    service = _service(user)
    if service is None:
        return [Figure(_("Bucket usage"), _("not configured"), reverse("storage:index"))]
    last = SyncRun.objects.filter(service=service, state=SyncRun.State.COMPLETED).first()
    files = mirrored_files(service, last)
    # One query for both counts (the dashboard keeps to bench/report_scale.py's budget).
    counts = UploadTask.objects.filter(service=service, state__in=(
        UploadTask.State.QUEUED, UploadTask.State.UPLOADING, UploadTask.State.FAILED,
    )).aggregate(
        running=Count("id", filter=Q(state__in=(UploadTask.State.QUEUED,
                                                UploadTask.State.UPLOADING))),
        failed=Count("id", filter=Q(state=UploadTask.State.FAILED)),
    )
    running, failed = counts["running"], counts["failed"]
    mirrored = (
        formats.date_format(timezone.localtime(last.finished_at), "Y-m-d H:i")
        if last and last.finished_at
        else _("never")
    )
    browser = f"{reverse('storage:index')}?{urlencode({'service': service.name})}"
    return [
        Figure(_("Storage service"), service.name, browser),
        Figure(_("Bucket usage"), bucket_usage_text(service), browser),
        Figure(_("Files (mirror)"), formats.number_format(files, force_grouping=True), browser),
        Figure(_("Mirror refreshed"), mirrored, browser),
        Figure(_("Uploads in progress"), str(running),
               uploads(service, UploadTask.State.UPLOADING)),
        Figure(_("Uploads failed"), str(failed), uploads(service, UploadTask.State.FAILED)),
    ]


def chart(user: RequestUser) -> DailyChart | None:
    """The chosen bucket's usage at the last reading of each of the last 14 days (no
    readings at all while no service is configured)."""
    if not user.has_perm("storage.access_storage"):
        return None
    service = _service(user)
    days = chart_days()
    used = services.usage_per_day(service, days[0]) if service is not None else {}
    return DailyChart(
        title=(_("Usage of %(bucket)s") % {"bucket": service.name} if service is not None
               else _("Bucket usage")),
        days=days,
        values=per_day(days, {day: float(size) for day, size in used.items()}, None),
        format_value=lambda value: services.size_text(int(value)),
        kind="line",
        url=reverse("storage:index"),
    )
