"""Signing endpoints of direct browser uploads (JSON; docs/decisions.md "Direct browser uploads").

The browser opens the upload with `upload_create` (as for the path through the back-office),
then asks `upload_sign` for each request it sends to the storage service, and tells
`upload_report` what the provider took and when it completed. Bodies are JSON; every refusal
is `{"ok": false, "field": <name>, "error": <sentence>}` with 400 (bad input), 403 (outside
what the person may write), 404 (not their upload) or 409 (the upload's state).
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.http import JsonResponse
from django.views.decorators.http import require_POST

from backoffice.annotations import StaffRequest
from storage import services
from storage.models import UploadTask
from storage.views.access import MANAGE, needs
from storage.views.uploads import _task_or_404, status_json


def _refusal(field: str, message: str, status: int) -> JsonResponse:
    return JsonResponse({"ok": False, "field": field, "error": message}, status=status)


def _body(request: StaffRequest) -> dict[str, Any] | None:
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        return None
    return body if isinstance(body, dict) else None


def _direct_task(request: StaffRequest, pk: int) -> UploadTask:
    return _task_or_404(request, pk, to_provider=True)


@needs(MANAGE)
@require_POST
def upload_sign(request: StaffRequest, pk: int) -> JsonResponse:
    """Signatures for the next requests of a direct upload.

    `{"stage": "form"}` → `{"ok", "stage", "url", "fields": {policy, authorization},
    "expires_at"}`; `{"stage": "initiate" | "complete"}` and `{"stage": "upload", "parts":
    [{"id", "md5"}, ...]}` → `{"ok", "stage", "requests": [{"method", "url", "headers",
    "part"?}, ...], "expires_at"}`. Reports may ride along, each saving a request before
    the bytes can go: `uuid` (the provider's task id, from the initiate's answer) and
    `parts_done` (part ids the provider took since the last call); `"complete": true` with the
    last parts adds the completion's signature as `"complete"`."""
    task = _direct_task(request, pk)
    body = _body(request)
    if body is None:
        return _refusal("body", services.body_text(), 400)
    stage = body.get("stage")
    extra: dict[str, Any] = {}
    try:
        uuid = body.get("uuid")
        if uuid is not None and not isinstance(uuid, str):
            raise services.SignatureRefused("uuid", services.uuid_text())
        if uuid is not None or body.get("parts_done"):
            services.report_progress(task.pk, uuid=uuid,
                                     parts=_ids(body.get("parts_done") or []))
        if stage == "form":
            return JsonResponse({"ok": True, "stage": stage,
                                 **services.sign_form(task.pk)})
        signed = services.sign_stage(task.pk, str(stage or ""), _parts(body.get("parts")))
        if stage == "upload" and body.get("complete") is True:
            extra["complete"] = services.sign_stage(task.pk, "complete")[0].as_json()
    except services.SignatureRefused as refusal:
        return _refusal(refusal.field, refusal.message, refusal.status)
    return JsonResponse({"ok": True, "stage": stage,
                         "requests": [request_.as_json() for request_ in signed], **extra,
                         "expires_at": int(time.time()) + services.signature_lifetime_s()})


def _ids(value: object) -> list[int]:
    if not isinstance(value, list):
        raise services.SignatureRefused("parts_done", services.ids_text())
    if not all(isinstance(item, int) and not isinstance(item, bool) for item in value):
        raise services.SignatureRefused("parts_done", services.ids_text())
    return value


def _parts(value: object) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise services.SignatureRefused("parts", services.ids_text())
    return [item if isinstance(item, dict) else {} for item in value]


@needs(MANAGE)
@require_POST
def upload_report(request: StaffRequest, pk: int) -> JsonResponse:
    """What the browser saw at the provider: `{"uuid"}` after the initiate, `{"parts":
    [ids]}` for parts taken, `{"done": true, "replaced": bool, "answer"?: <the FORM API's
    answer>}` once complete (checked with a HEAD before it is believed), `{"refusal":
    {"status", "code", "msg", "detail", "id"}}` (the provider's answer) for a refusal no new
    signature cures. Answers `{"ok": true, "upload":
    <status>}`."""
    task = _direct_task(request, pk)
    body = _body(request)
    if body is None:
        return _refusal("body", services.body_text(), 400)
    try:
        uuid = body.get("uuid")
        if uuid is not None and not isinstance(uuid, str):
            raise services.SignatureRefused("uuid", services.uuid_text())
        if uuid is not None or body.get("parts"):
            task = services.report_progress(
                task.pk, uuid=uuid, parts=_ids(body.get("parts") or []))
        if isinstance(body.get("refusal"), dict):
            task = services.report_failure(task.pk, body["refusal"])
        elif body.get("done") is True:
            answer = body.get("answer")
            task = services.finish_upload(
                task.pk, replaced=body.get("replaced") is True,
                answer=answer if isinstance(answer, dict) else None)
    except services.SignatureRefused as refusal:
        return _refusal(refusal.field, refusal.message, refusal.status)
    return JsonResponse({"ok": True, "upload": status_json(task)})
