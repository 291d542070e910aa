"""Copy, move and rename, of a file or a whole folder: the form, its questions, and the
progress page of a folder's job. Reading needs `access_storage`; acting `manage_files`, as a
delete does."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.contrib.humanize.templatetags.humanize import intcomma
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from backoffice.annotations import StaffRequest
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from backoffice.ui.errors import NotFoundForStaff
from console.models import Service
from storage import paths, rules, services
from storage.models import FolderTransfer
from storage.services import NotFound, Plan, StorageError, TargetExists, TransferRefused
from storage.texts import error_text, problem_text
from storage.views.access import MANAGE, needs
from storage.views.navigation import (
    browse_url,
    not_private,
    page_service,
    path_url,
    service_context,
)
from storage.views.transfer_form import TransferForm, refusal_text

PROVIDER_ERRORS = (StorageError, ProviderNotConfigured, rules.RuleViolation)


def _titles(action: str, path: str) -> str:
    titles = {"copy": gettext("Copy %(path)s"), "move": gettext("Move %(path)s"),
              "rename": gettext("Rename %(path)s")}
    return titles.get(action, titles["move"]) % {"path": path}


def _render(request: StaffRequest, service: Service, form: TransferForm, source: str,
            action: str, *, status: int = 200) -> HttpResponse:
    return render(request, "storage/transfer.html", {
        **service_context(request, service),
        "form": form,
        "source": source,
        "action": action,
        "title": _titles(action, source),
        "crumbs": services.breadcrumbs(paths.parent_of(source)),
        "back_url": browse_url(service, paths.parent_of(source)),
    }, status=status)


def _source_or_404(value: str | None) -> str:
    try:
        return not_private(paths.canonical(value or "", allow_root=False))
    except rules.RuleViolation as violation:
        raise NotFoundForStaff(" ".join(problem_text(p) for p in violation.problems)) from None


@needs(MANAGE)
@require_http_methods(["GET", "POST"])
def transfer(request: StaffRequest) -> HttpResponse:
    service = page_service(request)
    if request.method == "GET":
        source = _source_or_404(request.GET.get("path"))
        action = request.GET.get("action") or "move"
        action = action if action in services.TRANSFER_KINDS else "move"
        typed = paths.name_of(source) if action == "rename" else source
        form = TransferForm(action=action, initial={
            "path": source, "action": action, "target": typed, "target_service": service.name})
        return _render(request, service, form, source, action)
    form = TransferForm(request.POST)
    source = _source_or_404(request.POST.get("path"))
    action = str(form.data.get("action") or "move")
    if not form.is_valid():
        return _render(request, service, form, source, action, status=400)
    return _act(request, service, form, source, form.cleaned_data["action"])


def _act(request: StaffRequest, service: Service, form: TransferForm, source: str,
         action: str) -> HttpResponse:
    target = form.cleaned_data["target_path"]
    try:
        other = form.cleaned_data.get("target_service")
        if other and other != service.name:
            raise TransferRefused("other_service", target)
        plan = services.plan_transfer(service, source, target,
                                      cast(services.TransferKind, action))
    except TransferRefused as refused:
        form.add_error("target", refusal_text(refused, source, service.name))
        return _render(request, service, form, source, action, status=400)
    except NotFound:
        form.add_error(None, gettext("There is no file or folder at %(path)s any more.")
                       % {"path": source})
        return _render(request, service, form, source, action, status=400)
    except PROVIDER_ERRORS as failure:
        form.add_error(None, error_text(failure, target))
        return _render(request, service, form, source, action, status=400)
    if plan.is_folder:
        if not confirmed(request) or (plan.target_exists and request.POST.get("merge") != "1"):
            return confirmation_page(request, _folder_question(request, plan))
        job = services.start_folder_transfer(plan, request.user)
        return redirect("storage:folder_transfer", pk=job.pk)
    replace = confirmed(request) and request.POST.get("replace") == "1"
    try:
        services.transfer_file(plan, replace=replace)
    except TargetExists:
        return confirmation_page(request, _replace_question(request, plan))
    except PROVIDER_ERRORS as failure:
        form.add_error("target", error_text(failure, target))
        return _render(request, service, form, source, action, status=400)
    done = {"copy": gettext("%(source)s copied to %(target)s."),
            "move": gettext("%(source)s moved to %(target)s."),
            "rename": gettext("%(source)s renamed to %(target)s.")}[action]
    messages.success(request, done % {"source": source, "target": target})
    return redirect(path_url("storage:file", service, target))


def _fields(request: StaffRequest, plan: Plan, **extra: str) -> dict[str, str]:
    return {"service": plan.service.name, "path": plan.source, "action": plan.kind,
            "target": str(request.POST.get("target", "")),
            "target_service": plan.service.name, **extra}


def _back(plan: Plan) -> str:
    return path_url("storage:transfer", plan.service, plan.source) + f"&action={plan.kind}"


def _replace_question(request: StaffRequest, plan: Plan) -> Confirmation:
    words = {"source": plan.source, "target": plan.target}
    questions = {"copy": gettext("Copy %(source)s onto the file %(target)s, replacing it?"),
                 "move": gettext("Move %(source)s onto the file %(target)s, replacing it?"),
                 "rename": gettext("Rename %(source)s to %(target)s, replacing the file of "
                                   "that name?")}
    return Confirmation(
        question=questions[plan.kind] % words,
        consequences=[gettext("A file is already at %(target)s: it is replaced, with its "
                              "metadata.") % words, gettext("This cannot be undone.")],
        button=gettext("Replace %(target)s") % words,
        back_url=_back(plan),
        fields=_fields(request, plan, replace="1"),
    )


def _folder_question(request: StaffRequest, plan: Plan) -> Confirmation:
    count = plan.count or services.TreeCount(0, 0)
    words = {"source": plan.source, "target": plan.target, "count": intcomma(count.files),
             "folders": intcomma(count.folders)}
    if plan.kind == "copy":
        question = ngettext("Copy the folder %(source)s and its %(count)s file to %(target)s?",
                            "Copy the folder %(source)s and its %(count)s files to %(target)s?",
                            count.files) % words
        button = gettext("Copy the folder")
        how = gettext("A worker copies the files one by one; a page shows its progress and "
                      "what failed.")
    else:
        question = ngettext("Move the folder %(source)s and its %(count)s file to %(target)s?",
                            "Move the folder %(source)s and its %(count)s files to %(target)s?",
                            count.files) % words
        button = gettext("Move the folder")
        how = gettext("A worker copies every file first, then deletes the originals only if "
                      "every copy succeeded: if one fails, the folder stays complete where it "
                      "is. Moved addresses are purged from the CDN.")
    consequences = [how]
    if count.folders:
        consequences.append(ngettext("Its %(folders)s subfolder goes too.",
                                     "Its %(folders)s subfolders go too.", count.folders) % words)
    extra: dict[str, Any] = {}
    if plan.target_exists:
        consequences.append(gettext("The folder %(target)s already exists: the files go into "
                                    "it, replacing those with the same names.") % words)
        extra["merge"] = "1"
    return Confirmation(question=question, consequences=consequences, button=button,
                        back_url=_back(plan), fields=_fields(request, plan, **extra))


@needs()
@require_GET
def folder_transfer(request: StaffRequest, pk: int) -> HttpResponse:
    """A folder being copied or moved: the progress, reloaded until it ends, then what
    failed, each path with its reason in the reader's language."""
    job = get_object_or_404(FolderTransfer.objects.select_related("service"), pk=pk)
    failures = []
    for entry in job.failures:
        error = services.failure_error(entry)
        about = entry.get("target") if entry.get("phase") == "copy" else entry.get("path")
        failures.append({**entry, "reason": error_text(error, str(about)) if error
                         else entry.get("text", "")})
    return render(request, "storage/folder_transfer.html", {
        "job": job,
        "failures": failures,
        "source_url": browse_url(job.service, job.source),
        "target_url": browse_url(job.service, job.target),
    })
