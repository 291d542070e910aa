"""Browser uploads that go straight to the storage service; the back-office only signs.

A task (`UploadTask`, `to_provider=True`) is opened as for the path through the back-office
(`start_browser_upload`), then the browser asks for signatures and sends every byte itself:

- up to the resumable threshold (and preprocessed images, which the provider takes only in one
  request): a FORM API policy (`sign_form_upload`) scoped to the task's path, its exact size,
  its options and a short life;
- above it: each REST request of a resumable upload in parallel mode (`initiate`, every part,
  `complete`), signed per request with `X-Date` (a browser may not set `Date`) and with the
  request's Content-MD5: a part's signature is good for those bytes only, the initiate and the
  completion for an empty body only, so no signature handed out can write another file to the
  path. The dates are set back so that the provider, which takes a date within 30 minutes of
  its clock, refuses them after `STORAGE_DIRECT_SIGNATURE_LIFETIME_S`.

The browser reports the provider's task uuid and the parts it took (`report_progress`), then
completion (`finish_upload`): the back-office believes neither, it checks the file with a
HEAD (its size) before recording the upload done. Cancelling the provider's unfinished task
is done by the back-office itself (a DELETE signature would also delete the file).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from backoffice.annotations import StaffUser
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.audit import record
from console.models import Service
from console.services import StorageAccess, storage_access
from storage import paths, rules, signing
from storage.client import NotFound, StorageError, StorageProtocolError
from storage.client.answers import theme_colours_of
from storage.client.errno import ERRORS_BY_CODE
from storage.models import UploadTask
from storage.resumable import DEFAULT_MULTI_TYPE, MAX_PARTS
from storage.services import extensions, mirror
from storage.services.connection import storage_client
from storage.services.details import FileDetails, fetch_details
from storage.services.files import target
from storage.services.form_uploads import sign_form_upload
from storage.services.private import refuse_private
from storage.services.signature_refusals import SignatureRefused
from storage.services.uploads import (
    UploadOptions,
    colour_records,
    goes_resumable,
    guess_content_type,
)
from storage.texts import error_text

MIB = 1_048_576
# The provider takes a signed date within this many seconds of its clock (authorization.md).
PROVIDER_DATE_WINDOW_S = 30 * 60
EMPTY_MD5 = hashlib.md5(b"").hexdigest()
# At most this many part signatures in one answer (a browser asks for a few at a time).
MAX_PARTS_PER_REQUEST = 64
ROUTE_DIRECT = "direct"


@dataclass(frozen=True)
class SignedRequest:
    """One request for the browser to send as it is: method, URL and headers."""

    method: str
    url: str
    headers: dict[str, str]
    part: int | None = None

    def as_json(self) -> dict[str, Any]:
        answer: dict[str, Any] = {"method": self.method, "url": self.url,
                                  "headers": self.headers}
        if self.part is not None:
            answer["part"] = self.part
        return answer


def body_text() -> str:
    return gettext("Send a JSON object.")


def ids_text() -> str:
    return gettext("Give a list of part ids.")


def uuid_text() -> str:
    return gettext("The upload id must be the 36 characters the provider answered.")


def goes_direct() -> bool:
    """Whether browsers send files straight to the provider (STORAGE_BROWSER_UPLOAD_ROUTE)."""
    return str(getattr(settings, "STORAGE_BROWSER_UPLOAD_ROUTE", ROUTE_DIRECT)) == ROUTE_DIRECT


def direct_part_size() -> int:
    """The part size new direct uploads are opened with: whole MiB (the provider's rule)."""
    size = int(getattr(settings, "STORAGE_DIRECT_PART_SIZE", 4 * MIB))
    return max(MIB, size - size % MIB)


def part_size_for(length: int) -> int:
    """The configured part size, larger when the file would need more than 10,000 parts."""
    size = direct_part_size()
    while -(-length // size) > MAX_PARTS:
        size += MIB
    return size


def browser_part_size(length: int) -> int:
    """The part size a browser upload of `length` bytes is sent in, by the configured route."""
    return part_size_for(length) if goes_direct() else MIB


def storage_origins(service: Service) -> list[str]:
    """The origins (scheme://host[:port]) the page may send this service's files to."""
    access = storage_access(service)
    origins = []
    for url in (access.url, access.fallback_url):
        parts = urlsplit(url)
        if parts.scheme and parts.netloc:
            origins.append(f"{parts.scheme}://{parts.netloc}")
    return list(dict.fromkeys(origins))


def parts_in_flight() -> int:
    return int(getattr(settings, "STORAGE_UPLOAD_PARTS_IN_FLIGHT", 4))


def signature_lifetime_s() -> int:
    return int(getattr(settings, "STORAGE_DIRECT_SIGNATURE_LIFETIME_S", 900))


def part_count(task: UploadTask) -> int:
    return -(-task.size // task.part_size)


def part_length(task: UploadTask, part_id: int) -> int:
    return max(0, min(task.part_size, task.size - part_id * task.part_size))


def start_direct_upload(
    service: Service, *, target_path: str, original_name: str, size: int,
    content_type: str | None, options: UploadOptions, user: StaffUser | None = None,
) -> UploadTask:
    """The task the browser sends straight to the provider; an unfinished one for the same
    file, target and options is taken up again (a reloaded page), with its provider task and
    the parts already reported. Whether a file is at the path now is kept for the purge."""
    target = paths.canonical(target_path, allow_root=False)
    refuse_private(target)
    resumable = goes_resumable(size, options)
    with transaction.atomic():
        unfinished = (
            UploadTask.objects.select_for_update()
            .filter(service=service, to_provider=True, target_path=target, size=size,
                    original_name=original_name,
                    state__in=(UploadTask.State.UPLOADING, UploadTask.State.FAILED))
            .order_by("-created_at").first()
        )
        if unfinished is not None and unfinished.options == options.as_json():
            UploadTask.objects.filter(pk=unfinished.pk).update(
                state=UploadTask.State.UPLOADING, error="", updated_at=timezone.now())
            unfinished.refresh_from_db()
            return unfinished
    existed = storage_client(service).exists(target)
    return UploadTask.objects.create(
        service=service, source="", remove_source=False, direct=True, to_provider=True,
        state=UploadTask.State.UPLOADING, original_name=original_name, target_path=target,
        size=size, content_type=guess_content_type(original_name, content_type),
        resumable=resumable, parallel=resumable,
        part_size=part_size_for(size) if resumable else size, options=options.as_json(),
        result={"existed": existed},
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )


def _open_task(pk: int) -> UploadTask:
    task = UploadTask.objects.select_related("service").get(pk=pk, to_provider=True)
    if task.state != UploadTask.State.UPLOADING:
        raise SignatureRefused("upload", gettext(
            "This upload is %(state)s; nothing more is signed for it.")
            % {"state": task.get_state_display()}, status=409)
    return task


def sign_form(pk: int, *, now: float | None = None) -> dict[str, Any]:
    """The FORM API fields for a task sent in one request: its path, exactly its size."""
    task = _open_task(pk)
    if task.resumable:
        raise SignatureRefused("stage", gettext("This upload goes in parts, not by the form."))
    options = UploadOptions.from_json(task.options)
    grant = sign_form_upload(
        task.service, task.target_path, max_size=max(task.size, 1),
        lifetime_s=signature_lifetime_s(), content_type=task.content_type,
        options=options, now=now)
    return {"url": grant.url, "fields": grant.fields, "expires_at": grant.expiration}


def sign_stage(pk: int, stage: str, parts: Iterable[Mapping[str, Any]] = (),
               *, now: float | None = None) -> list[SignedRequest]:
    """Signed requests of a resumable task's `stage`: `initiate`, `upload` (one per part of
    `parts`, each `{"id": n, "md5": hex}`) or `complete`."""
    task = _open_task(pk)
    if not task.resumable:
        raise SignatureRefused("stage", gettext("This upload goes by the form, not in parts."))
    clock = time.time() if now is None else now
    if stage == "initiate":
        if task.uuid:
            raise SignatureRefused("stage", gettext(
                "This upload is open at the provider already; send its missing parts."),
                status=409)
        options = UploadOptions.from_json(task.options)
        headers = {
            "x-svc-multi-stage": "initiate",
            "x-svc-multi-length": str(task.size),
            "x-svc-multi-type": task.content_type or DEFAULT_MULTI_TYPE,
            "x-svc-multi-part-size": str(task.part_size),
            "x-svc-multi-disorder": "true",
            **rules.metadata_headers(options.all_metadata()),
        }
        return [_signed(task, headers, EMPTY_MD5, clock)]
    if not task.uuid:
        raise SignatureRefused("uuid", gettext(
            "Report the provider's upload id (from the initiate answer) first."), status=409)
    if stage == "complete":
        headers = {"x-svc-multi-stage": "complete", "x-svc-multi-uuid": task.uuid}
        return [_signed(task, headers, EMPTY_MD5, clock)]
    if stage != "upload":
        raise SignatureRefused("stage", gettext(
            "The stage must be form, initiate, upload or complete."))
    wanted = _checked_parts(task, parts)
    access = storage_access(task.service)
    return [
        _signed(task, {"x-svc-multi-stage": "upload", "x-svc-multi-uuid": task.uuid,
                       "x-svc-part-id": str(part_id)}, md5, clock, part=part_id, access=access)
        for part_id, md5 in wanted
    ]


def _checked_parts(task: UploadTask, parts: Iterable[Mapping[str, Any]]) -> list[tuple[int, str]]:
    listed = list(parts) if not isinstance(parts, (str, bytes)) else []
    if not listed:
        raise SignatureRefused("parts", gettext("Name the parts to sign, with their MD5."))
    if len(listed) > MAX_PARTS_PER_REQUEST:
        raise SignatureRefused("parts", gettext(
            "At most %(count)s parts are signed at once.") % {"count": MAX_PARTS_PER_REQUEST})
    count = part_count(task)
    wanted: list[tuple[int, str]] = []
    for entry in listed:
        part_id = entry.get("id") if isinstance(entry, Mapping) else None
        md5 = entry.get("md5") if isinstance(entry, Mapping) else None
        if not isinstance(part_id, int) or isinstance(part_id, bool) or \
                not 0 <= part_id < count:
            raise SignatureRefused("parts", gettext(
                "A part id must be a whole number from 0 to %(last)s.") % {"last": count - 1})
        if not isinstance(md5, str) or rules.check_content_md5(md5.lower()):
            raise SignatureRefused("parts", gettext(
                "Part %(part)s needs the 32 hex digits of its MD5.") % {"part": part_id})
        wanted.append((part_id, md5.lower()))
    return wanted


def _signed(task: UploadTask, headers: dict[str, str], md5: str, clock: float,
            part: int | None = None, access: StorageAccess | None = None) -> SignedRequest:
    access = access or storage_access(task.service)
    uri = signing.encode_uri(f"/{access.bucket}{task.target_path}")
    # Set back so that the provider's 30-minute window closes `lifetime` seconds from now.
    date = signing.http_date(clock - (PROVIDER_DATE_WINDOW_S - signature_lifetime_s()))
    signature = signing.current_signature("PUT", uri, date, access.password, md5)
    return SignedRequest("PUT", access.url + uri, {
        **headers, "X-Date": date, "Content-MD5": md5,
        "Authorization": signing.authorization(access.operator, signature),
    }, part=part)


def report_progress(pk: int, *, uuid: str | None = None,
                    parts: Iterable[int] = ()) -> UploadTask:
    """Record what the browser says the provider took: its task uuid, parts received."""
    with transaction.atomic():
        task = UploadTask.objects.select_for_update().get(pk=pk, to_provider=True)
        if task.state != UploadTask.State.UPLOADING:
            raise SignatureRefused("upload", gettext(
                "This upload is %(state)s; nothing more is recorded for it.")
                % {"state": task.get_state_display()}, status=409)
        values: dict[str, Any] = {"updated_at": timezone.now()}
        if uuid is not None:
            if not task.resumable or len(uuid) != 36 or \
                    not all(c in "0123456789abcdefABCDEF-" for c in uuid):
                raise SignatureRefused("uuid", uuid_text())
            if task.uuid and task.uuid != uuid:
                # A second initiate (another tab): the parts reported so far are of the first.
                values.update(parts_done=[], bytes_sent=0)
            values.update(uuid=uuid, parallel=True)
        count = part_count(task)
        done = set() if "parts_done" in values else set(task.parts_done)
        for part_id in parts:
            if isinstance(part_id, bool) or not 0 <= part_id < count:
                raise SignatureRefused("parts", gettext(
                    "A part id must be a whole number from 0 to %(last)s.")
                    % {"last": count - 1})
            done.add(part_id)
        if done != set(task.parts_done):
            values["parts_done"] = sorted(done)
            values["bytes_sent"] = sum(part_length(task, part_id) for part_id in done)
        UploadTask.objects.filter(pk=pk).update(**values)
    task.refresh_from_db()
    return task


def report_failure(pk: int, refusal: Mapping[str, Any]) -> UploadTask:
    """The provider refused a request for a reason a new signature does not cure (a part of
    the wrong size, for one): the upload is failed with the provider's reason, worded as the
    back-office words any refusal (its errno row, in the reader's language); Resume opens it
    again. `refusal` is the provider's answer as the page got it: `status` and the body's
    `code`, `msg`, `detail` and `id`."""
    task = UploadTask.objects.get(pk=pk, to_provider=True)
    code = refusal.get("code")
    status = refusal.get("status")
    error = error_from_answer(
        str(refusal.get("msg") or "")[:300] or gettext("refused"),
        code=code if isinstance(code, int) and not isinstance(code, bool) else None,
        request_id=str(refusal.get("id") or "")[:64] or None,
        status=status if isinstance(status, int) and not isinstance(status, bool) else 0,
        detail=str(refusal.get("detail") or "")[:300])
    UploadTask.objects.filter(pk=pk, state=UploadTask.State.UPLOADING).update(
        state=UploadTask.State.FAILED, error=error_text(error, task.target_path),
        updated_at=timezone.now())
    task.refresh_from_db()
    return task


def form_result(answer: Mapping[str, Any] | None) -> dict[str, Any]:
    """What an upload's result keeps from the FORM API's answer the page passed on (image
    size, type, frames, theme colours): shown on the page, never relied on (the file itself is
    checked with a HEAD)."""
    if not isinstance(answer, Mapping):
        return {}
    result: dict[str, Any] = {}
    for field, key in (("image-width", "width"), ("image-height", "height"),
                       ("image-frames", "frames")):
        value = answer.get(field)
        if isinstance(value, int) and not isinstance(value, bool):
            result[key] = value
    if isinstance(answer.get("image-type"), str):
        result["file_type"] = str(answer["image-type"])[:20]
    colours = answer.get("colors")
    if isinstance(colours, list) and len(colours) <= 256:
        try:
            result["colours"] = colour_records(theme_colours_of(colours))
        except StorageProtocolError:
            pass  # not the provider's shape: nothing shown
    return result


def finish_upload(pk: int, *, replaced: bool = False,
                  answer: Mapping[str, Any] | None = None) -> UploadTask:
    """The browser says the file is complete: believed once a HEAD finds it with the task's
    size; then recorded done with the same records and signals as any upload."""
    task = UploadTask.objects.select_related("service").get(pk=pk, to_provider=True)
    if task.state == UploadTask.State.DONE:
        return task  # a repeated report (a lost answer): nothing to do twice
    if task.state not in (UploadTask.State.UPLOADING, UploadTask.State.ABANDONED):
        raise SignatureRefused("upload", gettext(
            "This upload is %(state)s; it cannot be completed.")
            % {"state": task.get_state_display()}, status=409)
    try:
        details = fetch_details(storage_client(task.service), task.target_path)
    except NotFound:
        raise SignatureRefused("upload", gettext(
            "The storage service does not hold %(path)s yet.") % {"path": task.target_path},
            status=409) from None
    except (StorageError, ProviderNotConfigured) as error:
        raise SignatureRefused("upload", error_text(error, task.target_path),
                               status=503) from None
    return record_done(task, details, replaced=replaced, result=form_result(answer))


def record_done(task: UploadTask, details: FileDetails, *, replaced: bool,
                result: Mapping[str, Any] | None = None) -> UploadTask:
    """Mark the task done if the provider holds its size (a preprocessed image may differ);
    failed otherwise. Records, signals and the audit entry follow a first `done` only.
    `replaced` is the browser's word (the provider answered 204) or a file found at the path
    when the task was opened (`result["existed"]`): either makes the purge."""
    replaced = replaced or bool(task.result.get("existed"))
    size = details.info.size
    if not task.options.get("gmkerl") and size is not None and size != task.size:
        message = gettext("The provider holds different bytes: %(detail)s") % {
            "detail": f"{size} bytes stored, {task.size} sent"}
        UploadTask.objects.filter(pk=task.pk).update(
            state=UploadTask.State.FAILED, error=message, updated_at=timezone.now())
        task.refresh_from_db()
        return task
    now = timezone.now()
    values: dict[str, Any] = {
        "state": UploadTask.State.DONE, "next_part": -1 if task.resumable else 0,
        "bytes_sent": task.size, "error": "", "finished_at": now, "updated_at": now,
        "result": {**task.result, **(result or {}), "replaced": replaced},
    }
    if details.info.md5:
        values["md5"] = details.info.md5.lower()
    first = UploadTask.objects.filter(pk=task.pk).exclude(state=UploadTask.State.DONE).update(
        **values)
    task.refresh_from_db()
    if first:
        announce(task, details, replaced)
    return task


def error_from_answer(msg: str, *, code: int | None, request_id: str | None, status: int,
                      detail: str) -> StorageError:
    """The typed error of the provider's answer the page saw, as the client would raise it."""
    kind = ERRORS_BY_CODE.get(code, StorageError) if code is not None else StorageError
    return kind(msg, code=code, request_id=request_id, status=status, detail=detail)


def announce(task: UploadTask, details: FileDetails, replaced: bool) -> None:
    """The same records and signals as a worker's upload (`browser_uploads._announce`), and
    the audit entry of the upload."""
    mirror.record_folder(task.service, task.target_folder)
    mirror.record_details(task.service, details)
    extensions.send(extensions.file_uploaded, task.service, task.target_path, size=task.size,
                    content_type=details.content_type, replaced=replaced)
    if replaced:
        extensions.send(extensions.file_replaced, task.service, task.target_path)
    record("storage", "file.upload", target=target(task.service, task.target_path),
           summary=f"{task.size} bytes, sent by the browser straight to the provider",
           user=task.created_by)
