"""The four tool pages: Info, Snapshot, Clip and Concatenate.

Each is a form (prefilled from `?path=`, the file browser's link, or from `?job=`, to run an
earlier job again with changes). A valid form runs the job at once, since the provider's
endpoints are synchronous; success leads to the job's page with its result, a failure stays
on the form with the provider's error shown and the job recorded.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from backoffice.annotations import StaffRequest
from backoffice.operations.provider import ProviderNotConfigured
from console.models import Service
from media import paths, services
from media.forms import ClipForm, ConcatForm, InfoForm, SnapshotForm
from media.models import ErrorKind, JobKind, JobState, ProcessingJob
from media.texts import NOT_MEDIA_ADVICE
from media.timecode import BadTimePoint, normalise_point
from media.views import basket
from media.views.access import (
    RUN,
    abilities,
    needs,
    page_service,
    required,
    service_context,
)
from media.views.links import storage_links

# The client and the provider name fields as the API does; the forms' names differ in places.
FIELD_OF_PROBLEM = {"format": "image_format", "include": "start", "exclude": "start",
                    "index": "unit"}
_PROVIDER_FIELD = re.compile(r"^\s*([a-z_]+)(\[\d+\])?\s*:")


def _path_param(request: StaffRequest) -> str:
    """The `?path=` of a file-browser link, if it is a usable path ('' otherwise)."""
    try:
        return paths.check_path(request.GET.get("path", ""))
    except paths.PathProblem:
        return ""


def _earlier_job(request: StaffRequest, service: Service | None,
                 kind: tuple[str, ...]) -> ProcessingJob | None:
    raw = request.GET.get("job", "")
    if service is None or not raw.isdigit():
        return None
    return ProcessingJob.objects.filter(pk=int(raw), service=service, kind__in=kind).first()


def attach_job_errors(form: forms.Form, job: ProcessingJob) -> None:
    """Show a failed job's complaint next to the field it names, when it names one.

    Problems found by the client carry their field; the provider's 400 messages start with
    `field:` (the sandbox's do; others are shown as they are, above the form).
    """
    named: list[tuple[str, str]] = []
    if job.error_kind == ErrorKind.REFUSED_LOCALLY:
        named = [(str(p.get("field", "")), str(p.get("message", "")))
                 for p in job.answer.get("problems", [])]
    elif job.error_kind == ErrorKind.BAD_REQUEST:
        match = _PROVIDER_FIELD.match(job.error)
        if match:
            named = [(match[1], job.error)]
    elif job.error_kind == ErrorKind.NOT_MEDIA:
        match = _PROVIDER_FIELD.match(job.error)
        named = [(match[1] if match else "source", str(NOT_MEDIA_ADVICE))]
    for field, message in named:
        name = FIELD_OF_PROBLEM.get(field.split("[")[0], field.split("[")[0])
        if name in form.fields:
            form.add_error(name, message)


_F = TypeVar("_F", bound=forms.Form)


def _run_or_show(request: StaffRequest, service: Service | None, form: _F, template: str,
                 run: Callable[[_F], ProcessingJob],
                 context: dict[str, Any] | None = None) -> HttpResponse:
    """Run a valid form's job; on success go to the job, otherwise show the form again."""
    failed_job = None
    status = 200
    if form.is_valid():
        try:
            job = run(form)
        except ProviderNotConfigured as error:
            form.add_error(None, _("The provider is not configured: %(error)s") % {
                "error": error})
            status = 503
        else:
            if job.state == JobState.SUCCEEDED:
                messages.success(request, _("Job #%(pk)s succeeded.") % {"pk": job.pk})
                return redirect("media:job_detail", pk=job.pk)
            attach_job_errors(form, job)
            failed_job = job
            status = 502 if job.error_kind in (ErrorKind.SERVER, ErrorKind.NO_ANSWER,
                                               ErrorKind.UNEXPECTED) else 400
    elif request.method == "POST":
        status = 400
    return render(request, template, {
        "form": form, "failed_job": failed_job, **(context or {}),
        **service_context(request, service, request.resolver_match.view_name
                          if request.resolver_match else "media:index"),
        **abilities(request.user)}, status=status)


# --- Info ------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@needs(RUN)
def info(request: StaffRequest) -> HttpResponse:
    service = page_service(request)
    if request.method == "POST":
        form = InfoForm(request.POST)
    else:
        earlier = _earlier_job(request, service, (JobKind.MEDIA_INFO, JobKind.PLAYLIST_INFO))
        path = earlier.source if earlier else _path_param(request)
        read_as = "auto"
        if earlier:
            read_as = "playlist" if earlier.kind == JobKind.PLAYLIST_INFO else "media"
        form = InfoForm(initial={"path": path, "read_as": read_as})

    def run(valid: InfoForm) -> ProcessingJob:
        return services.read_info(required(service), valid.cleaned_data["path"],
                                  as_playlist=valid.as_playlist(), user=request.user)

    return _run_or_show(request, service, form, "media/info.html", run, {"nav": "info"})


# --- Snapshot --------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@needs(RUN)
def snapshot(request: StaffRequest) -> HttpResponse:
    service = page_service(request)
    if request.method == "POST":
        form = SnapshotForm(request.POST)
    else:
        form = SnapshotForm(initial=_snapshot_initial(request, service))

    def run(valid: SnapshotForm) -> ProcessingJob:
        data = valid.cleaned_data
        return services.take_snapshot(required(service), data["source"], data["save_as"],
                                      data["point"],
                                      size=data["size"] or None,
                                      image_format=data["image_format"] or None,
                                      user=request.user)

    source = form.data.get("source") if form.is_bound else form.initial.get("source")
    return _run_or_show(request, service, form, "media/snapshot.html", run, {
        "nav": "snapshot", "source_links": _links_if_path(service, source)})


def _links_if_path(service: Service | None, value: object) -> object:
    if service is None:
        return None
    try:
        return storage_links(service, paths.check_path(str(value or "")))
    except paths.PathProblem:
        return None


def _snapshot_initial(request: StaffRequest, service: Service | None) -> dict[str, Any]:
    earlier = _earlier_job(request, service, (JobKind.SNAPSHOT,))
    if earlier:
        return {"source": earlier.source, "save_as": earlier.save_as,
                "point": earlier.parameters.get("point", "00:00:00"),
                "size": earlier.parameters.get("size", ""),
                "image_format": earlier.parameters.get("format", "")}
    source = _path_param(request)
    try:
        point = normalise_point(request.GET.get("point", "00:00:00"))
    except BadTimePoint:
        point = "00:00:00"
    initial: dict[str, Any] = {"source": source, "point": point}
    if source:
        initial["save_as"] = paths.suggested_snapshot_path(source, point)
    return initial


# --- Clip ------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@needs(RUN)
def clip(request: StaffRequest) -> HttpResponse:
    service = page_service(request)
    if request.method == "POST":
        form = ClipForm(request.POST)
    else:
        form = ClipForm(initial=_clip_initial(request, service))

    def run(valid: ClipForm) -> ProcessingJob:
        data = valid.cleaned_data
        start, end = valid.span()
        return services.clip_playlist(required(service), data["m3u8"], data["save_as"],
                                      keep=data["mode"] == "keep", start=start, end=end,
                                      by_segment=data["unit"] == "segments", user=request.user)

    return _run_or_show(request, service, form, "media/clip.html", run, {"nav": "clip"})


def _clip_initial(request: StaffRequest, service: Service | None) -> dict[str, Any]:
    earlier = _earlier_job(request, service, (JobKind.CLIP,))
    if earlier:
        keep = "include" in earlier.parameters
        span = earlier.parameters.get("include" if keep else "exclude") or [None, None]
        return {"m3u8": earlier.source, "save_as": earlier.save_as,
                "mode": "keep" if keep else "drop",
                "unit": "segments" if earlier.parameters.get("index") else "seconds",
                "start": span[0], "end": span[1]}
    source = _path_param(request)
    initial: dict[str, Any] = {"m3u8": source, "mode": "keep", "unit": "seconds"}
    if source:
        initial["save_as"] = paths.suggested_playlist_path(source, "clip")
    return initial


# --- Concatenate -----------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@needs(RUN)
def concat(request: StaffRequest) -> HttpResponse:
    """Playlists are gathered in a list kept in the session (the file browser's "Concatenate"
    adds one each time), put in order here, then joined."""
    service = page_service(request)
    if request.method != "POST":
        earlier = _earlier_job(request, service, (JobKind.CONCAT,))
        if earlier:
            basket.replace(request, earlier.sources)
        else:
            added = _path_param(request)
            if added and paths.is_playlist(added):
                basket.add(request, added)
            elif added:
                messages.error(request, _("%(path)s is not an M3U8 playlist; only playlists "
                                          "can be joined.") % {"path": added})
        rows = basket.rows(request)
        save_as = earlier.save_as if earlier else ""
        if not save_as and rows:
            save_as = paths.suggested_playlist_path(rows[0], "joined")
        form = ConcatForm(initial={"m3u8s": rows, "save_as": save_as})
        return _render_concat(request, service, form, rows)

    rows = request.POST.getlist("m3u8s")
    action = request.POST.get("action", "run")
    if action != "run":
        rows = basket.apply(action, rows)
        basket.replace(request, rows)
        form = ConcatForm(initial={"m3u8s": rows, "save_as": request.POST.get("save_as", "")})
        return _render_concat(request, service, form, rows)

    basket.replace(request, rows)
    form = ConcatForm(request.POST)

    def run(valid: ConcatForm) -> ProcessingJob:
        job = services.concatenate(required(service), valid.cleaned_data["m3u8s"],
                                   valid.cleaned_data["save_as"], user=request.user)
        if job.state == JobState.SUCCEEDED:
            basket.replace(request, [])
        return job

    return _run_or_show(request, service, form, "media/concat.html", run, {
        "nav": "concat", "rows": basket.display_rows(basket.rows(request)),
        "known_playlists": basket.known_playlists(service)})


def _render_concat(request: StaffRequest, service: Service | None, form: ConcatForm,
                   rows: list[str]) -> HttpResponse:
    return render(request, "media/concat.html", {
        "form": form, "rows": basket.display_rows(rows),
        "known_playlists": basket.known_playlists(service), "failed_job": None,
        "nav": "concat", **service_context(request, service, "media:concat"),
        **abilities(request.user)})
