"""Upload endpoints of the file browser (JSON for its script) and the uploads page.

The browser opens an upload (`upload_create`), then sends the file in 1 MiB parts (or whole, up
to the resumable threshold) to `upload_part`, which forwards each part to the provider at once:
nothing is kept on the web node, so consecutive parts may go through different nodes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext, pgettext
from django.views.decorators.http import require_GET, require_POST

from backoffice.annotations import StaffRequest
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.confirm import (
    Confirmation,
    confirmation_json,
    confirmation_page,
    confirmed,
)
from backoffice.security.redirects import safe_next
from console.services import may_use
from providerkit.json_types import JSONObject
from storage import paths, rules, services
from storage.forms import UploadOptionsForm
from storage.models import UploadTask
from storage.resumable import PART_SIZE
from storage.services import MAX_UPLOAD_BYTES
from storage.texts import error_text, problem_text
from storage.views.access import MANAGE, abilities, needs
from storage.views.navigation import page_service, path_url, service_context

# The existence check calls HEAD once per name: bounded so a huge drop stays quick.
MAX_CHECKED_NAMES = 100


def status_json(task: UploadTask) -> JSONObject:
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
        "direct": task.direct,
        "part_size": task.part_size if task.to_provider else PART_SIZE,
        "part_url": reverse("storage:upload_part", args=[task.pk, 0])[: -len("0/")]
        if task.direct and not task.to_provider
        else "",
        **(_direct_json(task) if task.to_provider else {}),
        "error": task.error,
        "result": task.result,
        "can_resume": task.state == UploadTask.State.FAILED,
        "status_url": reverse("storage:upload_status", args=[task.pk]),
        "resume_url": reverse("storage:upload_resume", args=[task.pk]),
        "cancel_url": reverse("storage:upload_cancel", args=[task.pk]),
        "file_url": path_url("storage:file", task.service, task.target_path),
        "created_by": task.created_by.get_username() if task.created_by else "",
        "created_at": formats.date_format(timezone.localtime(task.created_at), "Y-m-d H:i")
        if task.created_at
        else "",
    }


def _direct_json(task: UploadTask) -> JSONObject:
    """What the page needs to send a direct upload itself (storage.views.direct)."""
    return {
        "route": "direct",
        "method": "multipart" if task.resumable else "form",
        "sign_url": reverse("storage:upload_sign", args=[task.pk]),
        "report_url": reverse("storage:upload_report", args=[task.pk]),
        "parts": services.direct_part_count(task) if task.resumable else 1,
        "uuid": task.uuid,
        "parts_done": list(task.parts_done),
        "in_flight": services.parts_in_flight(),
    }


def _bad_request(errors: dict[str, list[str]], summary: list[str] | None = None) -> JsonResponse:
    """400 with the errors by field and, for the drop zone, each with its field's label."""
    return JsonResponse({"ok": False, "errors": errors,
                         "summary": summary if summary is not None else
                         [message for messages in errors.values() for message in messages]},
                        status=400)


@needs(MANAGE)
@require_POST
def upload_check(request: StaffRequest) -> JsonResponse:
    """Validate a batch before any byte is sent: the options, each target path, and which
    targets already exist (so the page can ask before replacing them)."""
    service = page_service(request)
    form = UploadOptionsForm(request.POST)
    if not form.is_valid():
        return _bad_request(form.error_dict(), form.error_summary())
    folder = form.cleaned_data["folder"]
    options = form.options()
    names = request.POST.getlist("name")
    sizes = request.POST.getlist("size")
    files = [
        _judge_name(folder, name, int(size) if size.isdigit() else 0, options)
        for name, size in zip(names, [*sizes, *[""] * len(names)], strict=False)
    ]
    checked = [entry["path"] for entry in files[:MAX_CHECKED_NAMES] if not entry["error"]]
    try:
        targets = services.probe_targets(service, checked)
    except ProviderNotConfigured as failure:
        return _bad_request({"__all__": [error_text(failure)]})
    for entry in files:
        if entry["path"] in targets:
            _describe_target(entry, name=entry["name"], target=targets[entry["path"]])
    answer: dict[str, Any] = {"ok": all(not f["error"] for f in files), "files": files}
    replaced = [entry["path"] for entry in files if entry["exists"] and not entry["error"]]
    if replaced:
        # The page is sending nothing yet, but it holds the dropped files: it asks in place,
        # with the words of the confirmation page, before any byte is sent.
        answer["confirmation"] = confirmation_json(
            _replace_question(folder, replaced,
                              sum(1 for f in files if not f["exists"] and not f["error"])))
    return JsonResponse(answer)


def _replace_question(folder: str, replaced: list[str], others: int) -> Confirmation:
    count = len(replaced)
    consequences = [ngettext(
        "The stored file is overwritten by the dropped one; its old content cannot be "
        "recovered.",
        "The stored files are overwritten by the dropped ones; their old content cannot be "
        "recovered.", count)]
    if others:
        consequences.append(ngettext(
            "The other %(count)s dropped file is new and is uploaded too.",
            "The other %(count)s dropped files are new and are uploaded too.",
            others) % {"count": others})
    return Confirmation(
        question=ngettext(
            "Replace %(count)s existing file in %(folder)s?",
            "Replace %(count)s existing files in %(folder)s?", count,
        ) % {"count": count, "folder": folder},
        consequences=consequences,
        button=ngettext("Replace %(count)s file", "Replace %(count)s files", count)
        % {"count": count},
        back_url="",  # the script's "Go back" stays on the page
        items=replaced,
    )


def _too_large_text(name: str) -> str:
    return gettext(
        "%(name)s is larger than %(limit)s, the most the provider takes in one file."
    ) % {"name": name, "limit": services.size_text(MAX_UPLOAD_BYTES)}


def _judge_name(
    folder: str, name: str, size: int, options: services.UploadOptions
) -> dict[str, Any]:
    """One dropped file as the page shows it, before asking the provider what is there."""
    entry: dict[str, Any] = {"name": name, "path": None, "exists": False, "error": "",
                             "resumable": services.goes_resumable(size, options),
                             "part_size": services.browser_part_size(size)}
    if size > MAX_UPLOAD_BYTES:
        entry["error"] = _too_large_text(name)
        return entry
    try:
        entry["path"] = paths.join(folder, name, field="file_name")
    except rules.RuleViolation as violation:
        entry["error"] = " ".join(problem_text(p) for p in violation.problems)
    return entry


def _describe_target(entry: dict[str, Any], *, name: str, target: services.Target) -> None:
    if target.failure is not None:
        entry["error"] = error_text(target.failure, entry["path"])
    elif target.kind == "folder":
        entry["error"] = gettext("A folder named %(name)s is already there.") % {"name": name}
    elif target.kind is not None:
        entry["exists"] = True


@needs(MANAGE)
@require_POST
def upload_create(request: StaffRequest) -> JsonResponse:
    """Open (or take up again) the upload of one file the browser is about to send in parts.

    Only the file's name, size and type arrive here, with the options; its bytes follow in
    `upload_part` requests, which any web node may receive.
    """
    form = UploadOptionsForm(request.POST)
    errors: dict[str, list[str]] = {} if form.is_valid() else form.error_dict()
    name = request.POST.get("name", "").strip()
    size_text = request.POST.get("size", "").strip()
    if not name:
        errors["name"] = [gettext("Choose a file to upload.")]
    if not size_text.isdigit():
        errors["size"] = [gettext("The file size must be a whole number of bytes.")]
    if errors:
        refusal = _bad_request(errors)
        if services.is_private(request.POST.get("folder", "")):
            refusal.status_code = 403  # outside what anyone may write from the page
        return refusal
    size = int(size_text)
    options = form.options()
    problem = _size_problem(name, size, options)
    if problem:
        return _bad_request({"size": [problem]})
    try:
        target = paths.join(form.cleaned_data["folder"], name, field="file_name")
    except rules.RuleViolation as violation:
        return _bad_request({"name": [problem_text(p) for p in violation.problems]})
    start = services.start_direct_upload if services.goes_direct() else \
        services.start_browser_upload
    try:
        task = start(
            page_service(request), target_path=target, original_name=name, size=size,
            content_type=request.POST.get("content_type"), options=options, user=request.user,
        )
    except services.PrivatePath as private:
        # Outside what anyone may write from the page: refused before anything is signed.
        forbidden = _bad_request({"folder": [error_text(private, target)]})
        forbidden.status_code = 403
        return forbidden
    except (services.StorageError, ProviderNotConfigured) as failure:
        return _bad_request({"__all__": [error_text(failure, target)]})
    answer: JSONObject = {"ok": True, "upload": status_json(task)}
    if task.to_provider and task.resumable and not task.uuid:
        # The initiate's signature rides along: one request less before the first byte.
        answer["initiate"] = services.sign_stage(task.pk, "initiate")[0].as_json()
    return JsonResponse(answer, status=201)


def _size_problem(name: str, size: int, options: services.UploadOptions) -> str:
    if size > MAX_UPLOAD_BYTES:
        return _too_large_text(name)
    one_request_limit = services.resumable_threshold()
    if not services.goes_resumable(size, options) and size > one_request_limit:
        # Preprocessed images go in one request, which a web node holds in memory.
        return gettext(
            "%(name)s is larger than %(limit)s, the most a preprocessed image may be."
        ) % {"name": name, "limit": services.size_text(one_request_limit)}
    return ""


@needs(MANAGE)
@require_POST
def upload_part(request: StaffRequest, pk: int, part_id: int) -> JsonResponse:
    """Forward one part of a browser upload to the provider; answers the next part id.

    The body is the part's raw bytes. A part out of order, sent twice, of the wrong size or
    for a closed upload is refused with the part the provider expects, and nothing changes.
    """
    task = _task_or_404(request, pk, direct=True)
    limit = services.part_length(task, part_id)
    data = request.read(limit + 1)  # never more than one part in memory
    try:
        task = services.receive_part(task.pk, part_id, data)
    except services.PartRefused as refusal:
        return JsonResponse(
            {"ok": False, "field": "part", "kind": refusal.kind, "error": refusal.message,
             "expected_part": refusal.expected, "upload": status_json(refusal.task)},
            status=REFUSAL_STATUS.get(refusal.kind, 409),
        )
    return JsonResponse({"ok": True, "next_part": task.next_part, "upload": status_json(task)})


# Bad input is 400/409; the provider out of reach 503 (send the same part again later); a
# refusal by the provider 502 (the upload is failed, Resume opens it again).
REFUSAL_STATUS = {"wrong_size": 400, "out_of_order": 409, "not_open": 409, "restarted": 409,
                  "unavailable": 503, "failed": 502}


@needs()
@require_GET
def upload_status(request: StaffRequest, pk: int) -> JsonResponse:
    return JsonResponse(status_json(_task_or_404(request, pk)))


def _task_or_404(request: StaffRequest, pk: int, **filters: object) -> UploadTask:
    """The upload, if the person may use its service (another service's upload is not
    theirs to see: 404, as if absent)."""
    task = get_object_or_404(UploadTask.objects.select_related("service"), pk=pk, **filters)
    if not may_use(request.user, task.service):
        raise Http404("no such upload")
    return task


def _wants_json(request: StaffRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@needs(MANAGE)
@require_POST
def upload_resume(request: StaffRequest, pk: int) -> HttpResponse:
    """One click after a failure: queue the upload again at its saved part."""
    return _task_action(request, pk, services.resume_upload)


@needs(MANAGE)
@require_POST
def upload_cancel(request: StaffRequest, pk: int) -> HttpResponse:
    """Discard an upload, after one confirmation: the confirmation page, or (for the page's
    script, which must not leave a page that is sending files) the same question as JSON."""
    task = _task_or_404(request, pk)
    back = safe_next(request, reverse("storage:uploads"))
    if not services.can_cancel(task):
        # Asked first, so nobody confirms a discard that will be refused.
        if _wants_json(request):
            return JsonResponse(status_json(task), status=409)
        messages.error(request, _no_longer_text(task))
        return redirect(back)
    if not confirmed(request):
        question = _discard_question(task, back)
        if _wants_json(request):
            return JsonResponse({"ok": False, "confirmation": confirmation_json(question)})
        return confirmation_page(request, question)
    done = services.cancel_upload(task.pk)
    if done:
        services.cancel_provider_task(task)  # a direct upload's parts at the provider
    task.refresh_from_db()
    if _wants_json(request):
        return JsonResponse(status_json(task), status=200 if done else 409)
    if done:
        messages.success(request, gettext("The upload of %(path)s was discarded.")
                         % {"path": task.target_path})
    else:  # it moved on while the question was read
        messages.error(request, _no_longer_text(task))
    return redirect(back)


def _no_longer_text(task: UploadTask) -> str:
    return gettext("The upload of %(path)s can no longer be discarded: it is %(state)s.") % {
        "path": task.target_path, "state": task.get_state_display()}


def _discard_question(task: UploadTask, back: str) -> Confirmation:
    return Confirmation(
        question=gettext("Discard the upload of %(path)s?") % {"path": task.target_path},
        consequences=[
            gettext(
                "What was sent so far (%(sent)s of %(size)s) is dropped and the upload cannot "
                "be resumed; a file already stored at that path is not changed."
            ) % {"sent": services.size_text(task.bytes_sent),
                 "size": services.size_text(task.size)},
            gettext("This cannot be undone: to upload the file, send it again."),
        ],
        button=gettext("Discard the upload"),
        back_url=back,
        fields={"next": back},
        items=[task.target_path],
    )


def _task_action(request: StaffRequest, pk: int, action: Callable[[int], bool]) -> HttpResponse:
    """Carry out `action` on the task; 409 (JSON) when its state did not allow it."""
    task = _task_or_404(request, pk)
    done = action(task.pk)
    task.refresh_from_db()
    if _wants_json(request):
        return JsonResponse(status_json(task), status=200 if done else 409)
    return redirect(safe_next(request, reverse("storage:uploads")))


@needs()
@require_GET
def upload_list(request: StaffRequest) -> HttpResponse:
    """Every upload into the service, newest first, with the same live progress and Resume
    as the browser."""
    service = page_service(request)
    state = request.GET.get("state", "")
    tasks = UploadTask.objects.select_related("created_by", "service").filter(service=service)
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
            **service_context(request, service, "storage:uploads"),
            **abilities(request.user),
            "script_config": {"texts": script_texts(), "sizeTexts": services.size_texts()},
        },
    )


def script_texts() -> dict[str, str]:
    """Translated words for browser.js (the page's script has no catalogue of its own)."""
    return {
        "thisPart": gettext("this part"),
        "overall": gettext("whole file"),
        "dropAgain": gettext("Drop the same file again to continue."),
        "sending": gettext("sending"),
        "done": gettext("done"),
        "failed": gettext("failed"),
        "resume": pgettext("storage", "Resume"),
        "discard": pgettext("storage", "Discard"),
        "retry": gettext("Send again"),
        # %s is a size, such as "4 MiB".
        "inParts": gettext("in parts of %s"),
        "onePut": gettext("in one request"),
        "networkError": gettext("The connection to the back-office was lost."),
        "refused": gettext("Refused:"),
        "checkFailed": gettext("The files could not be checked; nothing was sent."),
        "badOptions": gettext("Nothing was uploaded: correct the upload options."),
        "nothingDropped": gettext(
            "Nothing to upload: drop files (a folder cannot be uploaded as a whole)."
        ),
        "isFolder": gettext("%s is a folder: drop the files inside it instead."),
        "notReplaced": gettext("Nothing was sent: the existing files were kept."),
        "themeColours": gettext("Theme colours:"),
        # A stalled resumable upload (browser.js: retrying, then paused with the reason).
        "retrying": gettext("connection lost, retrying (attempt %s)"),
        "paused": gettext("paused"),
        "noAnswer": gettext("The back-office did not answer."),
        "providerLost": gettext("The connection to the storage service was lost."),
        "busy": gettext("The storage service is busy."),
        "timedOut": gettext("No answer within %s seconds."),
    }
