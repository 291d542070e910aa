"""The FORM API (api/form_api.md): `POST /<bucket>` as multipart/form-data, for browsers.

Fields: `policy` (form_policy.py), `authorization` (`SVC <operator>:<signature>`, the
signature `base64(HMAC-SHA1(md5hex(password), POST&<uri>[&<date>]&<policy>[&<content-md5>]))`,
api/authorization.md "放在 HTTP Body 中", where `date` and `content-md5` are the policy's own)
and `file`. The checks, in order, each with its errno.md code:

1. the form: multipart with a boundary (40000038), a policy (40000007), an authorization
   (40000008);
2. the policy's shape (form_policy.py), its bucket against the path (40000036), the bucket
   (40100012), the operator (40100006), the signature (40100005), the expiration on the
   sandbox clock (40300006 authorization has expired);
3. the file: present (40000005), `content-length` (40001002), `content-length-range` (40300008
   file too small / 40300009 file too large), `allow-file-type` on the uploaded file's
   extension (40300010), `content-md5` (40000006), `image-width-range` / `image-height-range`
   (40300018 not an image, 40300019 / 40300020);
4. preprocessing (`x-gmkerl-thumb` and the legacy keys, preprocess.py), then the file is
   stored at the expanded `save-key`;
5. the tasks of `apps` (form_apps.py) are queued, each with a copy of the stored file.

The answer is the result as JSON (`code` 200, `message` "ok", `url`, `time`, the image fields
for an image, `ext-param`, the theme colours or image metadata asked by `x-gmkerl-type`,
`task_ids` with `apps`), or,
with `return-url`, a 302 to that URL with the same fields as its query. A refusal after the
signature was checked goes to `return-url` too (`code` the errno code, `message` its
message); before that, the policy cannot be trusted and the refusal is answered as JSON.
`notify-url` gets the same fields, signed, after a success (form_notify.py).
"""

from __future__ import annotations

import base64
import binascii
import hmac
import io
import json
import re
from dataclasses import dataclass, replace
from urllib.parse import urlencode, urlsplit, urlunsplit

from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.http.multipartparser import MultiPartParserError
from PIL import ExifTags, Image

from sandbox.console import directory
from sandbox.core import clock
from sandbox.storage import (
    disk,
    form_apps,
    form_errors,
    form_notify,
    form_policy,
    form_save_key,
    gmkerl,
    metadata,
    paths,
    preprocess,
    store,
    thumb,
)
from sandbox.storage.errors import StorageError
from sandbox.storage.form_policy import Policy
from sandbox.storage.gmkerl import Preprocessing
from sandbox.storage.signature import md5_hex, signed_path

SCHEME = "SVC"
MAX_BASE64_BYTES = 64 * 1024 * 1024  # b64encoded files are decoded in memory
MAX_FIELD_BYTES = 64 * 1024  # a policy or an authorization sent as a file part
SECRET = re.compile(r"[A-Za-z0-9]+")


def is_form_upload(request: HttpRequest, path: str | None) -> bool:
    """A POST to the bucket itself, other than a folder creation, is a form upload."""
    return (request.method == "POST" and (path or "/") == "/"
            and "folder" not in request.headers)


def upload(request: HttpRequest, bucket: str) -> HttpResponseBase:
    policy: Policy | None = None
    trusted = False
    try:
        fields, file = form_fields(request)
        policy = form_policy.read(fields.get("policy", ""))
        operator, password = authenticate(request, bucket, fields, policy)
        trusted = True
        result = store_file(bucket, policy, file)
    except StorageError as error:
        if trusted and policy is not None and policy.return_url:
            return redirect(policy.return_url, [("code", str(error.code)),
                                                ("message", error.msg)])
        return error.response()
    task_ids = form_apps.queue(bucket, result.path, policy.apps, result.app_sources, operator,
                               password, policy.notify_url) if policy.apps else None
    fields_out = result_fields(policy, result, task_ids)
    if policy.notify_url:
        form_notify.queue(policy.notify_url, as_text_fields(fields_out), operator, password)
    if policy.return_url:
        return redirect(policy.return_url, as_text_fields(fields_out))
    return JsonResponse(dict(fields_out))


def form_fields(request: HttpRequest) -> tuple[dict[str, str], object | None]:
    content_type = request.content_type or ""
    if content_type != "multipart/form-data":
        raise StorageError(form_errors.WRONG_CONTENT_TYPE,
                      f"a form upload is multipart/form-data, got {content_type or 'none'!r}")
    if "boundary=" not in request.META.get("CONTENT_TYPE", ""):
        raise StorageError(form_errors.NO_BOUNDARY, "Content-Type multipart/form-data needs a "
                                               "boundary")
    try:
        posted = request.POST
        files = request.FILES
    except (MultiPartParserError, SuspiciousOperation) as error:  # unreadable, too many parts
        raise StorageError(form_errors.BAD_REQUEST, f"the multipart body cannot be read: {error}")\
            from None
    fields = {name: posted.get(name, "") for name in posted}
    # A part with a filename is a file to Django, whatever its name: the Python SDK sends
    # `policy` and `authorization` so. Every part but `file` is a text field.
    for name in files:
        if name != "file" and name not in fields:
            fields[name] = text_part(name, files[name])
    return fields, files.get("file")


def text_part(name: str, part: object) -> str:
    raw = part.read(MAX_FIELD_BYTES + 1)  # type: ignore[attr-defined]
    if len(raw) > MAX_FIELD_BYTES:
        raise StorageError(form_errors.BAD_REQUEST, f"the form field {name} is longer than "
                                               f"{MAX_FIELD_BYTES} bytes")
    try:
        return bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        raise StorageError(form_errors.BAD_REQUEST, f"the form field {name} is not UTF-8") from None


def authenticate(request: HttpRequest, bucket: str, fields: dict[str, str],
                 policy: Policy) -> tuple[str, str]:
    """(operator, password) of the operator who signed the form."""
    authorization = fields.get("authorization", "").strip()
    if not authorization:
        detail = "the form has no authorization field"
        if fields.get("signature"):
            detail += (" (the legacy `signature` needs the form API secret, which the sandbox "
                       "does not have: sign with authorization)")
        raise StorageError(form_errors.NEED_SIGNATURE, detail)
    if policy.bucket != bucket:
        raise StorageError(form_errors.BUCKET_MISMATCH,
                      f"the policy's bucket is {policy.bucket!r}, the path's {bucket!r}")
    if not directory.is_storage_service(bucket):
        raise StorageError(form_errors.BUCKET_NOT_EXISTS, f"no storage service named {bucket!r}")
    scheme, _, credential = authorization.partition(" ")
    operator, colon, signature = credential.strip().partition(":")
    if scheme.upper() != SCHEME or not colon or not operator or not signature:
        raise StorageError(form_errors.SIGNATURE_ERROR,
                      "authorization must be 'SVC <operator>:<signature>'")
    password = directory.operator_password(bucket, operator)
    if password is None:
        raise StorageError(form_errors.USER_NOT_EXISTS,
                      f"{operator!r} is not an operator of bucket {bucket}")
    expected = form_signature(signed_path(request.path), policy, password)
    if not hmac.compare_digest(signature.encode(), expected.encode()):
        raise StorageError(form_errors.SIGNATURE_ERROR,
                      "the signature does not match POST&<uri>[&<date>]&<policy>"
                      "[&<content-md5>] signed with the operator's password")
    now = clock.now()
    if policy.expiration < now:
        raise StorageError(form_errors.EXPIRED, f"the policy expired at {policy.expiration}, "
                                           f"{int(now - policy.expiration)} s ago")
    return operator, password


def form_signature(uri: str, policy: Policy, password: str) -> str:
    parts = ["POST", uri]
    if policy.date:
        parts.append(policy.date)
    parts.append(policy.raw)
    if policy.content_md5:
        parts.append(policy.content_md5)
    key = md5_hex(password).encode()
    return base64.b64encode(hmac.new(key, "&".join(parts).encode(), "sha1").digest()).decode()


@dataclass(frozen=True)
class Stored:
    """What the answer reports of a stored file."""

    path: str
    created_at: float
    outcome: preprocess.Outcome | None  # when preprocessing ran
    image: dict[str, str] | None  # the stored file's image fields, when it is an image
    meta: dict[str, object] | None  # x-gmkerl-type get_meta
    app_sources: list[disk.Received]  # a copy of the stored file for each task of `apps`


def store_file(bucket: str, policy: Policy, file: object | None) -> Stored:
    if file is None:
        raise StorageError(form_errors.NEED_FILE, "the form has no file field (a file part named "
                                             "file)")
    form_save_key.check(policy.save_key)
    if policy.content_secret is not None and not SECRET.fullmatch(policy.content_secret):
        raise StorageError(form_errors.BAD_CONTENT_SECRET,
                      f"policy: content-secret must be letters and digits, got "
                      f"{policy.content_secret!r}")
    options = gmkerl.parse(policy.gmkerl)
    if policy.info_type == "get_theme_color":
        options = replace(options or Preprocessing(drawing=False), extract=True)
    meta = metadata.from_headers({**policy.metadata, **(
        {"Content-Secret": policy.content_secret} if policy.content_secret is not None else {})})
    metadata.validate(meta)
    received = receive(file, policy.b64encoded)
    copies: list[disk.Received] = []
    try:
        check_file(policy, received, filename(file))
        path = paths.normalize(form_save_key.expand(
            policy.save_key, now=clock.now(), file_md5=received.md5, filename=filename(file)))
        store.check_writable(bucket, path, over_resumable=False)
        outcome = None
        if options is not None:
            outcome = preprocess.run(bucket, received, options)
            received = outcome.received
        image = thumb.image_info(received.path)
        meta_info = image_meta(received) if policy.info_type == "get_meta" else None
        mime_type = policy.content_type or (outcome.mime_type if outcome else None) \
            or store.guess_mime(path)
        copies = [disk.copy_in(received.path) for _ in policy.apps]
        stored, _ = store.commit_file(bucket, path, received, mime_type=mime_type, meta=meta,
                                      resumable=False, over_resumable=False)
    except BaseException:
        received.discard()
        for copy in copies:
            copy.discard()
        raise
    return Stored(stored.path, stored.created_at, outcome, image, meta_info, copies)


def receive(file: object, b64encoded: bool) -> disk.Received:
    stream = file  # an UploadedFile: read() in chunks
    size = int(getattr(file, "size", 0) or 0)
    if not b64encoded:
        return disk.receive(stream, size)  # type: ignore[arg-type]
    if size > MAX_BASE64_BYTES:
        raise StorageError(form_errors.BAD_REQUEST, f"b64encoded files are decoded up to "
                                               f"{MAX_BASE64_BYTES} bytes")
    raw = stream.read()  # type: ignore[attr-defined]
    try:
        data = base64.b64decode(b"".join(bytes(raw).split()), validate=True)
    except (binascii.Error, ValueError):
        raise StorageError(form_errors.BAD_REQUEST, "b64encoded is on but the file is not Base64")\
            from None
    return disk.receive(io.BytesIO(data), len(data))


def filename(file: object) -> str:
    return str(getattr(file, "name", "") or "").rsplit("/", 1)[-1]


def check_file(policy: Policy, received: disk.Received, name: str) -> None:
    size = received.size
    if policy.content_length is not None and policy.content_length != size:
        raise StorageError(form_errors.WRONG_CONTENT_LENGTH,
                      f"the policy's content-length is {policy.content_length}, the file has "
                      f"{size} bytes")
    if policy.length_range is not None:
        low, high = policy.length_range
        if size < low:
            raise StorageError(form_errors.FILE_TOO_SMALL,
                          f"the file has {size} bytes, content-length-range allows {low}-{high}")
        if size > high:
            raise StorageError(form_errors.FILE_TOO_LARGE,
                          f"the file has {size} bytes, content-length-range allows {low}-{high}")
    if policy.allow_file_types:
        _, dot, suffix = name.rpartition(".")
        kind = suffix.lower() if dot else ""
        if kind not in policy.allow_file_types:
            raise StorageError(form_errors.FILE_TYPE_ERROR,
                          f"the file {name!r} has extension {kind or 'none'!r}; allow-file-type "
                          f"allows {','.join(policy.allow_file_types)}")
    if policy.content_md5 and policy.content_md5 != received.md5:
        raise StorageError(form_errors.CONTENT_MD5_MISMATCH,
                      f"the policy's content-md5 is {policy.content_md5}, the file's "
                      f"{received.md5}")
    if policy.width_range is not None or policy.height_range is not None:
        check_image_size(policy, received)


def check_image_size(policy: Policy, received: disk.Received) -> None:
    info = thumb.image_info(received.path)
    if info is None:
        raise StorageError(form_errors.NOT_AN_IMAGE,
                      "image-width-range / image-height-range need an image; the file is not one")
    checks = ((policy.width_range, int(info["width"]), "width", form_errors.IMAGE_WIDTH),
              (policy.height_range, int(info["height"]), "height", form_errors.IMAGE_HEIGHT))
    for bounds, value, side, code in checks:
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            raise StorageError(code, f"the image's {side} is {value} px; image-{side}-range allows "
                                f"{bounds[0]}-{bounds[1]}")


def image_meta(received: disk.Received) -> dict[str, object]:
    """`x-gmkerl-type: get_meta`: the basic information and the EXIF tags by name."""
    info = thumb.image_info(received.path)
    if info is None:
        raise StorageError(form_errors.NOT_AN_IMAGE, "x-gmkerl-type get_meta needs an image")
    with Image.open(received.path) as image:
        exif = image.getexif()
    tags = {ExifTags.TAGS.get(tag, str(tag)): str(value) for tag, value in exif.items()}
    return {"width": int(info["width"]), "height": int(info["height"]), "type": info["type"],
            "frames": int(info["frames"]), "EXIF": tags}


def result_fields(policy: Policy, stored: Stored,
                  task_ids: list[str] | None = None) -> list[tuple[str, object]]:
    fields: list[tuple[str, object]] = [
        ("code", 200), ("message", "ok"), ("url", stored.path),
        ("time", int(stored.created_at)),
    ]
    image = stored.outcome.image if stored.outcome is not None else stored.image
    if image is not None:
        fields += [("image-width", int(image["width"])), ("image-height", int(image["height"])),
                   ("image-type", image["type"]), ("image-frames", int(image["frames"]))]
    if policy.ext_param is not None:
        fields.append(("ext-param", policy.ext_param))
    if stored.outcome is not None and stored.outcome.colours is not None:
        fields.append(("colors", stored.outcome.colours))
    if stored.meta is not None:
        fields.append(("meta", stored.meta))
    if task_ids is not None:
        fields.append(("task_ids", task_ids))
    return fields


def as_text_fields(fields: list[tuple[str, object]]) -> list[tuple[str, str]]:
    """The fields as a query string carries them (lists and objects as compact JSON)."""
    return [(name, value if isinstance(value, str) else
             str(value) if isinstance(value, int) else json.dumps(value, separators=(",", ":")))
            for name, value in fields]


def redirect(url: str, fields: list[tuple[str, str]]) -> HttpResponse:
    parts = urlsplit(url)
    query = "&".join(item for item in (parts.query, urlencode(fields)) if item)
    response = HttpResponse(status=302)
    response["Location"] = urlunsplit(parts._replace(query=query))
    return response
