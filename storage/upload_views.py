"""Upload endpoints of the file browser (JSON for its script) and the uploads page.

The browser sends one file per request; the file lands in MEDIA_ROOT/uploads while it
arrives (LocalCopyUploadHandler), then an UploadTask queues the transfer to the provider, whose
progress the page polls from `upload_status`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import permission_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext, pgettext
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_POST

from backoffice.provider import ProviderNotConfigured
from storage import paths, rules, services
from storage.client import NotFound, StorageClient, StorageError
from storage.forms import UploadOptionsForm
from storage.models import UploadTask
from storage.navigation import ACCESS, MANAGE, path_url, safe_next
from storage.receiving import LocalCopy, LocalCopyUploadHandler
from storage.texts import error_text, problem_text
from storage.uploads import MAX_UPLOAD_BYTES, UploadOptions

# The existence check calls HEAD once per name: bounded so a huge drop stays quick.
MAX_CHECKED_NAMES = 100


def status_json(task: UploadTask) -> dict[str, Any]:
    """What the page needs to draw one upload's second progress bar and its buttons."""
    return {
        "id": task.pk,
        "name": task.original_name,
        "target_path": task.target_path,
        "folder": task.target_folder,
        "state": task.state,
        "state_label": str(task.get_state_display()),
        "size": task.size,
        "bytes_sent": task.bytes_sent,
        "percent": task.percent,
        "resumable": task.resumable,
        "next_part": task.next_part,
        "error": task.error,
        "result": task.result,
        "can_resume": task.state == UploadTask.State.FAILED,
        "status_url": reverse("storage:upload_status", args=[task.pk]),
        "resume_url": reverse("storage:upload_resume", args=[task.pk]),
        "cancel_url": reverse("storage:upload_cancel", args=[task.pk]),
        "file_url": path_url("storage:file", task.target_path),
        "created_by": task.created_by.get_username() if task.created_by else "",
        "created_at": formats.date_format(timezone.localtime(task.created_at), "Y-m-d H:i")
        if task.created_at
        else "",
    }


def _bad_request(errors: dict[str, list[str]]) -> JsonResponse:
    return JsonResponse({"ok": False, "errors": errors}, status=400)


@permission_required(MANAGE, raise_exception=True)
@require_POST
def upload_check(request: HttpRequest) -> JsonResponse:
    """Validate a batch before any byte is sent: the options, each target path, and which
    targets already exist (so the page can ask before replacing them)."""
    form = UploadOptionsForm(request.POST)
    if not form.is_valid():
        return _bad_request(form.error_dict())
    folder = form.cleaned_data["folder"]
    options = form.options()
    names = request.POST.getlist("name")
    sizes = request.POST.getlist("size")
    try:
        client = services.storage_client()
    except ProviderNotConfigured as failure:
        return _bad_request({"__all__": [error_text(failure)]})
    files = []
    for index, name in enumerate(names):
        size = int(sizes[index]) if index < len(sizes) and sizes[index].isdigit() else 0
        files.append(_check_one(client, folder, name, size, options, index < MAX_CHECKED_NAMES))
    return JsonResponse({"ok": all(not f["error"] for f in files), "files": files})


def _too_large_text(name: str) -> str:
    return gettext(
        "%(name)s is larger than %(limit)s, the most the provider takes in one file."
    ) % {"name": name, "limit": filesizeformat(MAX_UPLOAD_BYTES)}


def _check_one(
    client: StorageClient, folder: str, name: str, size: int, options: UploadOptions,
    check_exists: bool,
) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": name, "path": None, "exists": False, "error": "",
                             "resumable": services.goes_resumable(size, options)}
    if size > MAX_UPLOAD_BYTES:
        entry["error"] = _too_large_text(name)
        return entry
    try:
        entry["path"] = paths.join(folder, name)
    except rules.RuleViolation as violation:
        entry["error"] = " ".join(problem_text(p) for p in violation.problems)
        return entry
    if not check_exists:
        return entry
    try:
        info = client.head(entry["path"])
    except NotFound:
        return entry
    except (StorageError, ProviderNotConfigured) as failure:
        entry["error"] = error_text(failure, entry["path"])
        return entry
    if info.type == "folder":
        entry["error"] = gettext("A folder named %(name)s is already there.") % {"name": name}
    else:
        entry["exists"] = True
    return entry


@csrf_exempt
@require_POST
def upload_create(request: HttpRequest) -> HttpResponse:
    """Receive files into local copies, then queue their transfer to the provider.

    CSRF is checked by the inner view: Django reads the request body to find a form token,
    and the upload handler must be set before the body is read. The permission is checked
    first, so a refused user's file is never stored.
    """
    if not request.user.has_perm(MANAGE):
        raise PermissionDenied
    handler = LocalCopyUploadHandler(request)
    request.upload_handlers = [handler]
    return _receive_upload(request, handler)


@csrf_protect
def _receive_upload(request: HttpRequest, handler: LocalCopyUploadHandler) -> JsonResponse:
    copies: list[LocalCopy] = [
        upload for upload in request.FILES.getlist("file") if isinstance(upload, LocalCopy)
    ]
    form = UploadOptionsForm(request.POST)
    errors: dict[str, list[str]] = {}
    if handler.too_large:
        errors["file"] = [_too_large_text(name) for name in handler.too_large]
    elif not copies:
        errors["file"] = [gettext("Choose a file to upload.")]
    if not form.is_valid():
        errors.update(form.error_dict())
    targets: list[str] = []
    if not errors:
        for copy in copies:
            try:
                targets.append(paths.join(form.cleaned_data["folder"], copy.name or ""))
            except rules.RuleViolation as violation:
                errors.setdefault("file", []).extend(problem_text(p) for p in violation.problems)
    if errors:
        for copy in copies:
            copy.discard()
        return _bad_request(errors)
    tasks = []
    with transaction.atomic():
        for copy, target in zip(copies, targets, strict=True):
            tasks.append(
                services.create_upload(
                    source=copy.local_path,
                    target_path=target,
                    original_name=copy.name or paths.name_of(target),
                    size=copy.size or 0,
                    md5=copy.md5,
                    content_type=copy.content_type,
                    options=form.options(),
                    user=request.user,
                )
            )
    return JsonResponse({"ok": True, "uploads": [status_json(task) for task in tasks]},
                        status=201)


@permission_required(ACCESS, raise_exception=True)
@require_GET
def upload_status(request: HttpRequest, pk: int) -> JsonResponse:
    return JsonResponse(status_json(get_object_or_404(UploadTask, pk=pk)))


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@permission_required(MANAGE, raise_exception=True)
@require_POST
def upload_resume(request: HttpRequest, pk: int) -> HttpResponse:
    """One click after a failure: queue the upload again at its saved part."""
    return _task_action(request, pk, services.resume_upload)


@permission_required(MANAGE, raise_exception=True)
@require_POST
def upload_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    return _task_action(request, pk, services.cancel_upload)


def _task_action(request: HttpRequest, pk: int, action: Callable[[int], bool]) -> HttpResponse:
    """Carry out `action` on the task; 409 (JSON) when its state did not allow it."""
    task = get_object_or_404(UploadTask, pk=pk)
    done = action(task.pk)
    task.refresh_from_db()
    if _wants_json(request):
        return JsonResponse(status_json(task), status=200 if done else 409)
    return redirect(safe_next(request, reverse("storage:uploads")))


@permission_required(ACCESS, raise_exception=True)
@require_GET
def upload_list(request: HttpRequest) -> HttpResponse:
    """Every upload, newest first, with the same live progress and Resume as the browser."""
    state = request.GET.get("state", "")
    tasks = UploadTask.objects.select_related("created_by")
    if state in UploadTask.State.values:
        tasks = tasks.filter(state=state)
    page = Paginator(tasks, 50).get_page(request.GET.get("page"))
    return render(
        request,
        "storage/uploads.html",
        {
            "page": page,
            "uploads": [status_json(task) for task in page.object_list],
            "tasks": list(page.object_list),
            "state": state,
            "states": UploadTask.State.choices,
            "can_manage": request.user.has_perm(MANAGE),
            "script_config": {"texts": script_texts()},
        },
    )


def script_texts() -> dict[str, str]:
    """Translated words for browser.js (the page's script has no catalogue of its own)."""
    return {
        "toBackoffice": gettext("to the back-office"),
        "toStorage": gettext("to storage"),
        "sending": gettext("sending"),
        "received": gettext("received, queued for storage"),
        "done": gettext("done"),
        "failed": gettext("failed"),
        "resume": pgettext("storage", "Resume"),
        "discard": pgettext("storage", "Discard"),
        "retry": gettext("Send again"),
        "inParts": gettext("in 1 MiB parts"),
        "onePut": gettext("in one request"),
        "networkError": gettext("The connection to the back-office was lost."),
        "refused": gettext("Refused:"),
        "replaceConfirm": gettext(
            "These files already exist and will be replaced:"
        ),
        "checkFailed": gettext("The files could not be checked; nothing was sent."),
        "confirmDelete": gettext("Delete %s?"),
    }
