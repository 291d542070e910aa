"""One file: its page (HEAD facts, metadata, preview), the metadata and secret editors, and
the streamed download and preview endpoints."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from backoffice.annotations import StaffRequest
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from backoffice.ui.errors import NotFoundForStaff
from console.models import Service
from storage import paths, rules, services
from storage.forms import DeleteForm, MetadataForm, SecretForm
from storage.models import StoredFile
from storage.services import (
    PREVIEW_MAX_BYTES,
    PREVIEW_TYPES,
    FileDetails,
    NotFound,
    StorageError,
)
from storage.texts import error_text, problem_text
from storage.views.access import MANAGE, abilities, needs
from storage.views.navigation import (
    browse_url,
    not_private,
    page_service,
    path_url,
    service_context,
)

PROVIDER_ERRORS = (StorageError, ProviderNotConfigured, rules.RuleViolation)


def _path_or_404(request: StaffRequest) -> str:
    raw = request.GET.get("path") or request.POST.get("path") or ""
    try:
        path = paths.canonical(raw, allow_root=False)
    except rules.RuleViolation as violation:
        raise NotFoundForStaff(" ".join(problem_text(p) for p in violation.problems)) from None
    return not_private(path)


def _render_file(
    request: StaffRequest,
    service: Service,
    path: str,
    *,
    metadata_form: MetadataForm | None = None,
    secret_form: SecretForm | None = None,
    status: int = 200,
) -> HttpResponse:
    details: FileDetails | None = None
    error = None
    try:
        details = services.file_details(service, path)
    except NotFound:
        raise NotFoundForStaff(error_text(NotFound("not found"), path)) from None
    except PROVIDER_ERRORS as failure:
        error = error_text(failure, path)
    if details is not None and details.is_folder:
        return redirect(browse_url(service, path))
    content_type = details.content_type if details else None
    context = {
        "path": path,
        "name": paths.name_of(path),
        "details": details,
        "error": error,
        "mirror": StoredFile.objects.filter(service=service, path=path).first(),
        "crumbs": services.breadcrumbs(paths.parent_of(path)),
        **service_context(request, service),
        "folder_url": browse_url(service, paths.parent_of(path)),
        "download_url": path_url("storage:download", service, path),
        "preview_url": path_url("storage:preview", service, path)
        if details and services.is_previewable(path, content_type, details.info.size)
        else None,
        "actions": services.file_actions_for(service, path, content_type, request.user),
        **abilities(request.user),
        "metadata_form": metadata_form
        or MetadataForm(initial={"ttl_days": details.ttl_days if details else None}),
        "secret_form": secret_form or SecretForm(),
        "delete_form": DeleteForm(initial={"path": path, "kind": "file"}),
    }
    return render(request, "storage/file_detail.html", context, status=status)


@needs()
@require_GET
def file_detail(request: StaffRequest) -> HttpResponse:
    return _render_file(request, page_service(request), _path_or_404(request))


@needs(MANAGE)
@require_POST
def edit_metadata(request: StaffRequest) -> HttpResponse:
    service = page_service(request)
    path = _path_or_404(request)
    form = MetadataForm(request.POST)
    if not form.is_valid():
        return _render_file(request, service, path, metadata_form=form, status=400)
    data = form.cleaned_data
    try:
        services.change_metadata(
            service,
            path,
            data["option"],
            data["parsed_entries"],
            ttl_days=data["ttl"],
            remove_ttl=data["remove_ttl"],
            update_last_modified=data["update_last_modified"],
        )
    except PROVIDER_ERRORS as failure:
        messages.error(request, error_text(failure, path))
        return _render_file(request, service, path, metadata_form=form, status=400)
    messages.success(request, gettext("Metadata of %(path)s saved.") % {"path": path})
    return redirect(path_url("storage:file", service, path))


@needs(MANAGE)
@require_POST
def edit_secret(request: StaffRequest) -> HttpResponse:
    service = page_service(request)
    path = _path_or_404(request)
    form = SecretForm(request.POST)
    if not form.is_valid():
        return _render_file(request, service, path, secret_form=form, status=400)
    removing = form.cleaned_data["action"] == "remove"
    if removing and not confirmed(request):
        return confirmation_page(request, Confirmation(
            question=gettext("Remove the secret of %(path)s?") % {"path": path},
            consequences=[
                gettext("The file becomes reachable by its plain URL, without the secret."),
                gettext("The secret itself is forgotten: to protect the file again, set a new "
                        "one."),
            ],
            button=gettext("Remove the secret"),
            back_url=path_url("storage:file", service, path),
            fields={"service": service.name, "path": path, "action": "remove"},
            items=[path],
        ))
    try:
        if removing:
            services.remove_secret(service, path)
            done = gettext("The secret of %(path)s was removed.")
        else:
            services.set_secret(service, path, form.cleaned_data["secret"])
            done = gettext("The secret of %(path)s was saved.")
    except PROVIDER_ERRORS as failure:
        messages.error(request, error_text(failure, path))
        return _render_file(request, service, path, secret_form=form, status=400)
    messages.success(request, done % {"path": path})
    return redirect(path_url("storage:file", service, path))


def _stream(download: services.Download, *, attachment: bool) -> StreamingHttpResponse:
    response = StreamingHttpResponse(
        download.chunks(), content_type=download.content_type or "application/octet-stream"
    )
    if download.size is not None:
        response["Content-Length"] = str(download.size)
    disposition = content_disposition_header(attachment, download.filename)
    if disposition is not None:  # None only for an inline file without a name
        response["Content-Disposition"] = disposition
    return response


@needs()
@require_GET
def download(request: StaffRequest) -> HttpResponseBase:
    """The file, streamed from the provider through the back-office in 64 KiB chunks."""
    service = page_service(request)
    path = _path_or_404(request)
    try:
        opened = services.open_download(service, path)
    except NotFound:
        raise NotFoundForStaff(error_text(NotFound("not found"), path)) from None
    except PROVIDER_ERRORS as failure:
        messages.error(request, error_text(failure, path))
        return redirect(browse_url(service, paths.parent_of(path)))
    return _stream(opened, attachment=True)


@needs()
@require_GET
def preview(request: StaffRequest) -> HttpResponseBase:
    """An image for the browser's thumbnails, streamed from storage; only raster types a
    browser shows safely (never SVG, which can carry scripts), and only up to a size cap."""
    path = _path_or_404(request)
    try:
        opened = services.open_download(page_service(request), path)
    except NotFound:
        raise NotFoundForStaff(error_text(NotFound("not found"), path)) from None
    except PROVIDER_ERRORS as failure:
        return HttpResponse(error_text(failure, path), status=502, content_type="text/plain")
    kind = (opened.content_type or "").split(";")[0].strip().lower()
    too_big = opened.size is None or opened.size > PREVIEW_MAX_BYTES
    if kind not in PREVIEW_TYPES or too_big:
        opened.close()
        raise NotFoundForStaff(gettext("No preview for this file."))
    response = _stream(opened, attachment=False)
    response["Cache-Control"] = "private, max-age=300"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response
