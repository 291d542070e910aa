"""The FORM API's policy (api/form_api.md, api/authorization.md "Policy"): read and checked.

The policy is the Base64 of a JSON object of upload parameters. Reading it refuses, each with
its errno.md code, what can be refused before the file is looked at: an undecodable policy,
a missing bucket, save-key or expiration, a value of the wrong shape. The limits that need the
file (size, type, image size, MD5) are checked by `form_api` with the values read here.

Decisions where the page is silent (docs/decisions.md, "FORM API at the sandbox"):
- `service` is read as `bucket` when `bucket` is absent: both official SDKs send `service`.
- Values may be strings or numbers (the page's own example sends `expiration` as a string).
- A key the page does not list is refused by name, so a misspelt limit never passes unseen;
  `x-svc-meta-*` (metadata, `x-svc-meta-ttl` included) and the legacy `x-gmkerl-*`
  preprocessing keys of the page's "图片预处理（旧）" table are listed.
- `apps` (asynchronous processing) is read by form_apps.py.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass, field
from typing import Any

from sandbox.storage import form_apps, form_errors
from sandbox.storage.errors import StorageError
from sandbox.storage.form_apps import ThumbApp

KNOWN_KEYS = frozenset({
    "bucket", "service", "save-key", "expiration", "date", "content-md5", "return-url",
    "notify-url", "content-secret", "content-type", "allow-file-type", "content-length-range",
    "image-width-range", "image-height-range", "x-gmkerl-thumb", "x-gmkerl-type", "apps",
    "b64encoded", "ext-param", "content-length",
})
META_PREFIX = "x-svc-meta-"
GMKERL_PREFIX = "x-gmkerl-"
# x-gmkerl-type asks for information in the FORM API; any other value is the legacy
# thumbnail type (fix_width...), which the legacy table lists under the same name.
INFO_TYPES = ("get_meta", "get_theme_color")
MAX_EXT_PARAM_BYTES = 255
_RANGE = re.compile(r"\s*([0-9]{1,15})\s*,\s*([0-9]{1,15})\s*")
_WHOLE = re.compile(r"-?[0-9]{1,15}")
_MD5 = re.compile(r"[0-9a-fA-F]{32}")


@dataclass(frozen=True)
class Policy:
    """The upload parameters, checked for shape. `raw` is the policy text as signed."""

    raw: str
    bucket: str
    save_key: str
    expiration: int
    date: str = ""
    content_md5: str = ""
    return_url: str = ""
    notify_url: str = ""
    content_secret: str | None = None
    content_type: str = ""
    allow_file_types: tuple[str, ...] = ()
    length_range: tuple[int, int] | None = None
    width_range: tuple[int, int] | None = None
    height_range: tuple[int, int] | None = None
    content_length: int | None = None
    info_type: str = ""  # get_meta / get_theme_color, or ""
    ext_param: str | None = None
    b64encoded: bool = False
    metadata: dict[str, str] = field(default_factory=dict)
    gmkerl: dict[str, str] = field(default_factory=dict)  # x-gmkerl-* preprocessing keys
    apps: tuple[ThumbApp, ...] = ()  # asynchronous tasks (form_apps.py)


def read(raw: str) -> Policy:
    """The policy of the form field `policy`; StorageError naming what is wrong."""
    text = raw.strip()
    if not text:
        raise StorageError(form_errors.NEED_POLICY, "the form has no policy field")
    data = decode(text)
    unknown = sorted(key for key in data if key not in KNOWN_KEYS
                     and not key.startswith(META_PREFIX) and not key.startswith(GMKERL_PREFIX))
    if unknown:
        raise StorageError(form_errors.BAD_REQUEST,
                        f"policy: {unknown[0]!r} is not an upload parameter of the FORM API")
    values = {key: as_text(key, value) for key, value in data.items() if key != "apps"}
    bucket = values.get("bucket") or values.get("service") or ""
    if not bucket:
        raise StorageError(form_errors.NEED_BUCKET, "policy: bucket is required")
    save_key = values.get("save-key", "")
    if not save_key:
        raise StorageError(form_errors.NEED_SAVE_KEY, "policy: save-key is required")
    info_type = ""
    gmkerl = {key: value for key, value in values.items() if key.startswith(GMKERL_PREFIX)}
    if gmkerl.get("x-gmkerl-type") in INFO_TYPES:
        info_type = gmkerl.pop("x-gmkerl-type")
    return Policy(
        raw=text,
        bucket=bucket,
        save_key=save_key,
        expiration=expiration(values.get("expiration", "")),
        date=values.get("date", ""),
        content_md5=content_md5(values.get("content-md5", "")),
        return_url=url(values, "return-url"),
        notify_url=url(values, "notify-url"),
        content_secret=values.get("content-secret"),
        content_type=values.get("content-type", ""),
        allow_file_types=file_types(values.get("allow-file-type", "")),
        length_range=pair(values, "content-length-range", form_errors.BAD_REQUEST),
        width_range=pair(values, "image-width-range", form_errors.BAD_WIDTH_RANGE),
        height_range=pair(values, "image-height-range", form_errors.BAD_HEIGHT_RANGE),
        content_length=length(values.get("content-length")),
        info_type=info_type,
        ext_param=ext_param(values.get("ext-param")),
        b64encoded=switch(values, "b64encoded"),
        metadata={key.lower(): value for key, value in values.items()
                  if key.lower().startswith(META_PREFIX)},
        gmkerl=gmkerl,
        apps=form_apps.read(data["apps"]) if "apps" in data else (),
    )


def decode(text: str) -> dict[str, Any]:
    try:
        decoded = base64.b64decode(text.encode("ascii"), validate=True)
        data = json.loads(decoded.decode("utf-8"))
    except (UnicodeError, binascii.Error, ValueError):
        raise StorageError(form_errors.BAD_POLICY,
                        "policy must be the Base64 of a UTF-8 JSON object") from None
    if not isinstance(data, dict):
        raise StorageError(form_errors.BAD_POLICY, "policy must be the Base64 of a JSON object, "
                                                f"not of a {type(data).__name__}")
    return data


def as_text(key: str, value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise StorageError(form_errors.BAD_POLICY,
                        f"policy: {key} must be a string or a whole number, got "
                        f"{json.dumps(value)}")
    return str(value)


def expiration(raw: str) -> int:
    if not raw:
        raise StorageError(form_errors.NEED_EXPIRATION, "policy: expiration is required (a UNIX "
                                                     "time in seconds, UTC)")
    if not _WHOLE.fullmatch(raw.strip()):
        raise StorageError(form_errors.NEED_EXPIRATION,
                        f"policy: expiration must be a UNIX time in whole seconds, got {raw!r}")
    return int(raw)


def content_md5(raw: str) -> str:
    if raw and not _MD5.fullmatch(raw):
        raise StorageError(form_errors.BAD_REQUEST,
                        f"policy: content-md5 must be 32 hexadecimal digits, got {raw!r}")
    return raw.lower()


def url(values: dict[str, str], key: str) -> str:
    raw = values.get(key, "").strip()
    if raw and not re.match(r"https?://[^/\s]+", raw):
        raise StorageError(form_errors.BAD_REQUEST,
                        f"policy: {key} must be an http:// or https:// URL, got {raw!r}")
    return raw


def file_types(raw: str) -> tuple[str, ...]:
    kinds = tuple(part.strip().lower().lstrip(".") for part in raw.split(",") if part.strip())
    if raw.strip() and not kinds:
        raise StorageError(form_errors.BAD_REQUEST,
                        f"policy: allow-file-type must list extensions such as jpg,png, "
                        f"got {raw!r}")
    return kinds


def pair(values: dict[str, str], key: str, code: int) -> tuple[int, int] | None:
    raw = values.get(key)
    if raw is None:
        return None
    found = _RANGE.fullmatch(raw)
    if found is None or int(found[1]) > int(found[2]):
        raise StorageError(code, f"policy: {key} must be min,max with min <= max, got {raw!r}")
    return int(found[1]), int(found[2])


def length(raw: str | None) -> int | None:
    if raw is None:
        return None
    if not re.fullmatch(r"[0-9]{1,15}", raw.strip()):
        raise StorageError(form_errors.BAD_CONTENT_LENGTH,
                        f"policy: content-length must be a number of bytes, got {raw!r}")
    return int(raw)


def ext_param(raw: str | None) -> str | None:
    if raw is not None and len(raw.encode("utf-8")) > MAX_EXT_PARAM_BYTES:
        raise StorageError(form_errors.EXT_PARAM_TOO_LONG,
                        f"policy: ext-param is {len(raw.encode('utf-8'))} bytes of UTF-8, at "
                        f"most {MAX_EXT_PARAM_BYTES}")
    return raw


def switch(values: dict[str, str], key: str) -> bool:
    raw = values.get(key)
    if raw is None:
        return False
    if raw != "on":
        raise StorageError(form_errors.BAD_REQUEST, f"policy: {key} takes only the value on, "
                                                 f"got {raw!r}")
    return True
