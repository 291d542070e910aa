"""The job list with its filters, one job with its result, and a snapshot job's image."""

from __future__ import annotations

import json
import logging

from django.core.paginator import Paginator
from django.db.models import Q, QuerySet
from django.http import Http404, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from backoffice.annotations import StaffRequest
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.ui.errors import NotFoundForStaff
from console.models import ServiceKind
from console.services import may_use, visible_services
from media.forms import JobFilterForm
from media.models import ErrorKind, JobKind, JobState, ProcessingJob
from media.views import presenting
from media.views.access import VIEW_PROCESSING_JOB, abilities, needs
from media.views.links import output_links, storage_links
from storage import services as storage

logger = logging.getLogger(__name__)

PAGE_SIZE = 50
# Only raster types a browser shows safely are streamed from our origin (never SVG or HTML).
IMAGE_TYPES = {"jpg": "image/jpeg", "png": "image/png", "webp": "image/webp"}


def filtered_jobs(form: JobFilterForm) -> QuerySet[ProcessingJob]:
    jobs = ProcessingJob.objects.select_related("requested_by")
    if not form.is_valid():
        return jobs
    data = form.cleaned_data
    if data["kind"]:
        jobs = jobs.filter(kind=data["kind"])
    if data["state"]:
        jobs = jobs.filter(state=data["state"])
    if data["q"].strip():
        term = data["q"].strip()
        # sources is a JSON list: its text form contains every path, on every database.
        jobs = jobs.filter(Q(save_as__icontains=term) | Q(sources__icontains=term))
    return jobs


@require_GET
@needs(VIEW_PROCESSING_JOB)
def job_list(request: StaffRequest) -> HttpResponse:
    form = JobFilterForm(request.GET or None)
    # Jobs of the services the person may use (a service limited to other groups is not
    # theirs to see).
    allowed = visible_services(request.user, kind=ServiceKind.STORAGE)
    jobs = filtered_jobs(form).filter(service__in=allowed)
    page = Paginator(jobs, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "media/job_list.html", {
        "form": form, "page": page, "query": query.urlencode(), "nav": "jobs",
        **abilities(request.user)})


@require_GET
@needs(VIEW_PROCESSING_JOB)
def job_detail(request: StaffRequest, pk: int) -> HttpResponse:
    job = _job_or_404(request, ProcessingJob.objects.select_related("requested_by", "service"),
                      pk=pk)
    context: dict[str, object] = {
        "job": job, "nav": "jobs", **abilities(request.user),
        "answer_json": json.dumps(job.answer, indent=2, ensure_ascii=False, sort_keys=True),
    }
    if job.state == JobState.SUCCEEDED:
        if job.kind == JobKind.MEDIA_INFO:
            context["format_rows"] = presenting.format_rows(job.answer)
            context["stream_tables"] = presenting.stream_tables(job.answer)
        elif job.kind == JobKind.PLAYLIST_INFO:
            context["duration_text"] = presenting.seconds_text(job.answer.get("duration"))
            context["segments"] = presenting.segments(job.answer)
    context["parameter_rows"] = presenting.parameter_rows(job.parameters)
    context["source_links"] = [storage_links(job.service, path) for path in job.sources]
    if job.save_as:
        context["output_links"] = output_links(
            job.service, job.save_as, written=job.state == JobState.SUCCEEDED,
            maybe_written=job.state in (JobState.RUNNING, JobState.NO_ANSWER)
            or job.error_kind == ErrorKind.INTERRUPTED)
    return render(request, "media/job_detail.html", context)


def _job_or_404(request: StaffRequest, jobs: QuerySet[ProcessingJob],
                **lookup: object) -> ProcessingJob:
    """The job, if the person may use its service; 404 otherwise, as if it were absent."""
    job = get_object_or_404(jobs, **lookup)
    if not may_use(request.user, job.service):
        raise Http404("no such job")
    return job


def _snapshot_type(job: ProcessingJob, given: str | None) -> str | None:
    """The image type to answer with: the stored file's, else what the job asked for."""
    kind = (given or "").split(";")[0].strip().lower()
    if kind in IMAGE_TYPES.values():
        return kind
    answered = str(job.answer.get("content_type") or "").split(";")[0].strip().lower()
    if answered in IMAGE_TYPES.values():
        return answered
    return IMAGE_TYPES.get(str(job.parameters.get("format") or ""))


@require_GET
@needs(VIEW_PROCESSING_JOB)
def job_image(request: StaffRequest, pk: int) -> HttpResponseBase:
    """The image a snapshot job saved, streamed from storage through the back-office.

    Only a succeeded snapshot's own output can be fetched here, so this is no general proxy
    into the bucket. The file may have been replaced since (same `save_as`): it shows what
    storage holds now.
    """
    job = _job_or_404(request, ProcessingJob.objects.select_related("service"), pk=pk,
                      kind=JobKind.SNAPSHOT, state=JobState.SUCCEEDED)
    try:
        download = storage.open_download(job.service, job.save_as)
    except ProviderNotConfigured as error:
        return HttpResponse(str(error), status=503, content_type="text/plain; charset=utf-8")
    except storage.NotFound:
        raise NotFoundForStaff(_("The image is no longer in storage.")) from None
    except storage.StorageError as error:
        logger.warning("snapshot image of job %s could not be read: %s", job.pk, error)
        return HttpResponse(_("Storage did not give the image: %(error)s") % {"error": error},
                            status=502, content_type="text/plain; charset=utf-8")
    content_type = _snapshot_type(job, download.content_type)
    if content_type is None:
        download.close()
        raise NotFoundForStaff(_("The stored file is not an image a browser can show."))
    response = StreamingHttpResponse(download.chunks(), content_type=content_type)
    if download.size is not None:
        response["Content-Length"] = str(download.size)
    response["Cache-Control"] = "private, no-cache"
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response
