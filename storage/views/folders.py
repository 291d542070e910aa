"""The file browser: a folder page read live from the provider, folder creation and deletes.

File pages (details, metadata, secret, download, preview) live in `files`, uploads in
`uploads`. Reading needs `access_storage`; every change needs `manage_files`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.humanize.templatetags.humanize import intcomma
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_POST

from backoffice.annotations import StaffRequest
from backoffice.models import ProviderContact
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from backoffice.security.redirects import came_from, safe_next
from console.models import Service
from storage import paths, rules, services
from storage.forms import DeleteForm, DeleteSelectionForm, FolderForm, UploadOptionsForm
from storage.models import FolderDeletion, SyncRun, UploadTask
from storage.services import (
    PAGE_SIZES,
    Entry,
    FolderPage,
    SearchPage,
    StorageError,
    StorageProtocolError,
)
from storage.texts import error_text, problem_text
from storage.views.access import MANAGE, abilities, needs
from storage.views.navigation import (
    Listing,
    browse_url,
    folder_param,
    listing_of,
    not_private,
    page_service,
    path_url,
    service_context,
)
from storage.views.uploads import script_texts, status_json

PROVIDER_ERRORS = (StorageError, ProviderNotConfigured, rules.RuleViolation)
# The query parameter that brings a refused folder name back to the New folder field.
NEW_FOLDER = "new_folder"


@dataclass(frozen=True)
class Row:
    entry: Entry
    open_url: str
    preview_url: str | None
    download_url: str | None
    actions: list[tuple[str, str]]


def _rows(service: Service, page: FolderPage, request: StaffRequest) -> list[Row]:
    # Base URLs are reversed once: a page may hold 1000 rows.
    file_base = reverse("storage:file")
    preview_base = reverse("storage:preview")
    download_base = reverse("storage:download")
    rows = []
    for entry in page.entries:
        if entry.is_folder:
            rows.append(Row(entry, browse_url(service, entry.path, order=page.order,
                                              limit=page.limit), None, None, []))
            continue
        query = urlencode({"service": service.name, "path": entry.path})
        rows.append(
            Row(
                entry,
                f"{file_base}?{query}",
                f"{preview_base}?{query}" if entry.previewable else None,
                f"{download_base}?{query}",
                services.file_actions_for(service, entry.path, entry.content_type,
                                          request.user),
            )
        )
    return rows


def _pending_uploads(service: Service, folder: str) -> list[UploadTask]:
    """Unfinished uploads into this folder, so a reload still shows them (and Resume)."""
    unfinished = UploadTask.objects.select_related("created_by").filter(
        service=service,
        state__in=(UploadTask.State.QUEUED, UploadTask.State.UPLOADING, UploadTask.State.FAILED),
        target_path__startswith=folder.rstrip("/") + "/",
    ).order_by("-created_at")[:200]
    return [task for task in unfinished if task.target_folder == folder][:50]


def _partial_url(request: StaffRequest) -> str:
    query = request.GET.copy()
    query["partial"] = "listing"
    return f"{request.path}?{query.urlencode()}"


def _read(folder: str, listing: Listing) -> FolderPage:
    if listing.prefix:
        return services.search_page(listing.service, folder, listing.prefix,
                                    cursor=listing.cursor, limit=listing.limit)
    return services.read_page(listing.service, folder, cursor=listing.cursor,
                              order=listing.order, limit=listing.limit)


@needs()
@require_GET
def browser(request: StaffRequest) -> HttpResponse:
    service = page_service(request)
    folder, problems = folder_param(request.GET.get("path"))
    not_private(folder)
    for problem in problems:
        messages.error(request, problem_text(problem))
    listing = listing_of(request, service)
    page: FolderPage | None = None
    error = None
    if "/" in listing.prefix:
        # A name in a folder never holds a slash: say so instead of searching in vain.
        error = gettext("Search: “%(prefix)s” holds a “/”, which no name in a folder has; "
                        "open the folder and search there.") % {"prefix": listing.prefix}
    else:
        try:
            page = _read(folder, listing)
        except StorageProtocolError as failure:
            # Listing a file answers its content: send the user to the file's page instead.
            if services.is_file(service, folder):
                return redirect(path_url("storage:file", service, folder))
            error = error_text(failure, folder)
        except PROVIDER_ERRORS as failure:
            error = error_text(failure, folder)
    order, limit = listing.order, listing.limit
    context: dict[str, Any] = {
        "folder": folder,
        "crumbs": services.breadcrumbs(folder),
        **service_context(request, service),
        "page": page,
        "rows": _rows(service, page, request) if page else [],
        "error": error,
        "order": order,
        "limit": limit,
        "prefix": listing.prefix,
        "scanned": page.scanned if isinstance(page, SearchPage) else None,
        "page_number": listing.page_number,
        "page_sizes": PAGE_SIZES,
        "first_url": listing.url(folder) if listing.cursor else None,
        "previous_url": listing.previous_url(folder),
        "next_url": listing.next_url(folder, page.next_cursor) if page else None,
        "clear_search_url": browse_url(service, folder, order=order, limit=limit)
        if listing.prefix else None,
        "sort_url": None if listing.prefix
        else browse_url(service, folder, order="desc" if order == "asc" else "asc",
                        limit=limit),
        **abilities(request.user),
        "parent_url": browse_url(service, paths.parent_of(folder), order=order, limit=limit)
        if folder != paths.ROOT
        else None,
    }
    if request.GET.get("partial") == "listing":
        return render(request, "storage/_listing.html", context)
    context.update(
        folder_form=_folder_form(request, folder),
        options_form=UploadOptionsForm(initial={"folder": folder}),
        pending=[status_json(task) for task in _pending_uploads(service, folder)],
        contact=ProviderContact.objects.filter(service="storage").first(),
        last_sync=SyncRun.objects.filter(service=service, state=SyncRun.State.COMPLETED).first(),
        threshold=services.resumable_threshold(),
        direct_route=services.goes_direct(),
        script_config={
            "folder": folder,
            "service": service.name,
            "checkUrl": reverse("storage:upload_check"),
            "uploadUrl": reverse("storage:upload_create"),
            "listingUrl": _partial_url(request),
            "threshold": services.resumable_threshold(),
            "pauseAfterS": settings.STORAGE_UPLOAD_PAUSE_S,
            "partTimeoutS": settings.STORAGE_UPLOAD_PART_TIMEOUT_S,
            "texts": script_texts(),
            "sizeTexts": services.size_texts(),
        },
    )
    response = render(request, "storage/browser.html", context)
    if services.goes_direct():
        # The page sends files straight to this service's storage address (and its fallback
        # line): CSP's connect-src lets it reach those, and no other provider.
        response._csp_update = {  # type: ignore[attr-defined]  # django-csp reads it
            "connect-src": services.storage_origins(service)}
    return response


@needs(MANAGE)
@require_POST
def create_folder(request: StaffRequest) -> HttpResponse:
    service = page_service(request)
    form = FolderForm(request.POST)
    parent = form.data.get("parent") or paths.ROOT
    if not form.is_valid():
        # Back to the folder with the typed name, which the folder page checks again and
        # shows at the New folder field with its problem (nothing is kept on the server).
        return redirect(_with_typed_name(browse_url(service, folder_param(parent)[0]),
                                         str(form.data.get("name", ""))))
    path = form.cleaned_data["path"]
    try:
        services.create_folder(service, form.cleaned_data["parent"], form.cleaned_data["name"])
    except PROVIDER_ERRORS as failure:
        messages.error(request, error_text(failure, path))
        return redirect(_with_typed_name(browse_url(service, form.cleaned_data["parent"]),
                                         form.cleaned_data["name"]))
    else:
        messages.success(request, gettext("Folder %(path)s created.") % {"path": path})
    return redirect(browse_url(service, form.cleaned_data["parent"]))


def _with_typed_name(url: str, name: str) -> str:
    separator = "&" if "?" in url else "?"
    return f"{url}{separator}{urlencode({NEW_FOLDER: name[:255]})}"


def _folder_form(request: StaffRequest, folder: str) -> FolderForm:
    """The New folder form: empty, or, back from a refused creation, holding the typed name
    and (when the name itself is wrong) its problem at the field."""
    if NEW_FOLDER not in request.GET:
        return FolderForm(initial={"parent": folder})
    form = FolderForm({"parent": folder, "name": request.GET[NEW_FOLDER]})
    form.is_valid()
    return form


def _form_errors(request: StaffRequest, form: forms.Form) -> None:
    for errors in form.errors.values():
        for message in errors:
            messages.error(request, str(message))


@needs(MANAGE)
@require_POST
def delete(request: StaffRequest) -> HttpResponse:
    service = page_service(request)
    form = DeleteForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect(browse_url(service, paths.ROOT))
    path = not_private(form.cleaned_data["path"])
    kind = form.cleaned_data["kind"]
    asynchronous = form.cleaned_data["asynchronous"]
    back = browse_url(service, paths.parent_of(path))
    if kind == "folder" and not confirmed(request):
        # Counted first: a folder with files is offered as what it is (the folder and its
        # files, by a worker), never asked about and then refused by the provider.
        try:
            count = services.count_tree(service, path)
        except PROVIDER_ERRORS as failure:
            messages.error(request, error_text(failure, path))
            return redirect(back)
        if not count.empty:
            return confirmation_page(request, _tree_question(service, path, count, request))
    if not confirmed(request):
        return confirmation_page(
            request, _delete_question(service, path, kind, asynchronous, request))
    if kind == "folder" and request.POST.get("tree") == "1":
        deletion = services.start_folder_deletion(
            service, path, _int(request.POST.get("files")), request.user)
        return redirect("storage:folder_deletion", pk=deletion.pk)
    try:
        if kind == "folder":
            services.remove_folder(service, path)
            done = gettext("Folder %(path)s deleted.")
        elif asynchronous:
            services.delete_file(service, path, asynchronous=True)
            done = gettext("%(path)s will be deleted in the background.")
        else:
            services.delete_file(service, path)
            done = gettext("%(path)s deleted.")
    except PROVIDER_ERRORS as failure:
        messages.error(request, error_text(failure, path))
    else:
        messages.success(request, done % {"path": path})
    return redirect(back)


def _int(value: str | None) -> int:
    return int(value) if value and value.isdigit() else 0


def _tree_question(service: Service, path: str, count: services.TreeCount,
                   request: StaffRequest) -> Confirmation:
    figures = {"path": path, "service": service.name, "count": intcomma(count.files),
               "folders": intcomma(count.folders)}
    consequences = [
        ngettext("The folder holds %(count)s file.", "The folder holds %(count)s files.",
                 count.files) % figures,
        *([ngettext("Its %(folders)s subfolder goes too.", "Its %(folders)s subfolders go too.",
                    count.folders) % figures] if count.folders else []),
        gettext("A worker deletes every file, then the folders; a page shows its progress, "
                "and the audit log records the start and the end."),
        gettext("This cannot be undone."),
    ]
    return Confirmation(
        question=ngettext("Delete the folder %(path)s of %(service)s and its %(count)s file?",
                          "Delete the folder %(path)s of %(service)s and its %(count)s files?",
                          count.files) % figures,
        consequences=consequences,
        button=ngettext("Delete the folder and its %(count)s file",
                        "Delete the folder and its %(count)s files", count.files) % figures,
        back_url=came_from(request, browse_url(service, paths.parent_of(path))),
        fields={"service": service.name, "path": path, "kind": "folder", "asynchronous": "",
                "tree": "1", "files": str(count.files)},
    )


@needs()
@require_GET
def folder_deletion(request: StaffRequest, pk: int) -> HttpResponse:
    """A folder being deleted with its files: the progress, reloaded until it ends."""
    deletion = get_object_or_404(FolderDeletion.objects.select_related("service"), pk=pk)
    return render(request, "storage/folder_deletion.html", {
        "deletion": deletion,
        "folder_url": browse_url(deletion.service, paths.parent_of(deletion.path)),
    })


def _delete_question(service: Service, path: str, kind: str, asynchronous: bool,
                     request: StaffRequest) -> Confirmation:
    if kind == "folder":
        question = gettext("Delete the folder %(path)s of %(service)s?") % {
            "path": path, "service": service.name}
        what = gettext("The folder is empty.")
    else:
        question = gettext("Delete the file %(path)s of %(service)s?") % {
            "path": path, "service": service.name}
        what = (gettext("The provider removes it shortly after answering.") if asynchronous
                else gettext("It is removed from storage at once, with its metadata."))
    return Confirmation(
        question=question,
        consequences=[what, gettext("This cannot be undone.")],
        button=gettext("Delete the folder") if kind == "folder" else gettext("Delete the file"),
        back_url=came_from(request, browse_url(service, paths.parent_of(path))),
        fields={"service": service.name, "path": path, "kind": kind,
                "asynchronous": "on" if asynchronous else ""},
    )


@needs(MANAGE)
@require_POST
def delete_selected(request: StaffRequest) -> HttpResponse:
    """Delete the entries ticked on a folder page, after one confirmation naming them all."""
    service = page_service(request)
    not_private(folder_param(request.POST.get("folder"))[0])
    form = DeleteSelectionForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect(browse_url(service, folder_param(request.POST.get("folder"))[0]))
    folder = form.cleaned_data["folder"]
    targets = form.cleaned_data["targets"]
    back = safe_next(request, browse_url(service, folder))
    if not confirmed(request):
        count = len(targets)
        return confirmation_page(request, Confirmation(
            question=ngettext("Delete the %(count)s selected entry of %(folder)s in %(service)s?",
                              "Delete the %(count)s selected entries of %(folder)s in "
                              "%(service)s?", count)
            % {"count": intcomma(count), "folder": folder, "service": service.name},
            consequences=[
                gettext("Files are removed from storage at once, with their metadata. A folder "
                        "is deleted only when it is empty."),
                gettext("This cannot be undone."),
            ],
            button=ngettext("Delete %(count)s entry", "Delete %(count)s entries", count)
            % {"count": intcomma(count)},
            back_url=back,
            fields={"service": service.name, "folder": folder,
                    "selected": request.POST.getlist("selected"),
                    "next": back},
            items=[path + ("/" if kind == "folder" else "") for kind, path in targets],
        ))
    try:
        outcome = services.delete_entries(service, targets)
    except ProviderNotConfigured as unconfigured:
        messages.error(request, error_text(unconfigured, folder))
        return redirect(back)
    if outcome.deleted:
        messages.success(request, ngettext("%(count)s entry deleted.", "%(count)s entries deleted.",
                                           len(outcome.deleted))
                         % {"count": intcomma(len(outcome.deleted))})
    for path, failure in outcome.failed:
        messages.error(request, error_text(failure, path))
    return redirect(back)


@needs(MANAGE)
@require_POST
def mirror_now(request: StaffRequest) -> HttpResponse:
    """Queue a walk of the current folder tree into the mirror."""
    service = page_service(request)
    folder = not_private(folder_param(request.POST.get("path"))[0])
    services.refresh_mirror(service, folder)
    messages.info(request, gettext("The mirror of %(path)s is being refreshed.") % {"path": folder})
    return redirect(browse_url(service, folder))
