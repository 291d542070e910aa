"""The FORM API's `notify-url` call (api/form_api.md "通知规则", api/authorization.md
"FORM API 回调通知签名").

After a successful form upload the sandbox POSTs the result, URL-encoded, to `notify-url`:

    POST <path of notify-url>
    Date: <RFC 1123>
    Content-MD5: md5hex(body)
    Content-Type: application/x-www-form-urlencoded;charset=utf-8
    Authorization: SVC <operator>:<signature>

with signature = base64(HMAC-SHA1(md5hex(password), POST&<path>&<Date>&<Content-MD5>)),

signed by the operator who signed the upload. The call never holds up the upload's answer:
it is queued in memory and made by the sandbox's tick (every half second and after a clock
advance), outside the request. A call that fails (no connection, or an answer other than
2xx) is made again 60 sandbox seconds later, three calls in all. The queue and the outcome of
each call (`GET /storage/notifications` on the control port) live in memory: a restart or a
reset forgets them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import threading
from dataclasses import dataclass, field
from email.utils import formatdate
from urllib.parse import urlencode, urlsplit

import requests

from sandbox.core import clock
from sandbox.storage.signature import md5_hex

logger = logging.getLogger(__name__)

CALLS = 3
RETRY_AFTER_S = 60.0
TIMEOUT_S = (2.0, 3.0)
KEPT_RESULTS = 200
SCHEME = "SVC"


@dataclass
class Notification:
    url: str
    fields: list[tuple[str, str]]
    operator: str
    password: str
    due_at: float
    calls: list[dict[str, object]] = field(default_factory=list)
    done: bool = False
    json_body: str | None = None  # an `apps` task's callback (form_apps.py): JSON, not a form

    @property
    def body(self) -> str:
        return self.json_body if self.json_body is not None else urlencode(self.fields)

    @property
    def content_type(self) -> str:
        return ("application/json;charset=utf-8" if self.json_body is not None
                else "application/x-www-form-urlencoded;charset=utf-8")

    def report(self) -> dict[str, object]:
        return {"url": self.url, "body": self.body, "operator": self.operator,
                "done": self.done, "calls": list(self.calls)}


_lock = threading.Lock()
_pending: list[Notification] = []
_finished: list[Notification] = []


def queue(url: str, fields: list[tuple[str, str]], operator: str, password: str) -> None:
    with _lock:
        _pending.append(Notification(url, fields, operator, password, clock.now()))


def queue_json(url: str, payload: object, operator: str, password: str) -> None:
    """An `apps` task's callback: the JSON `payload`, signed and retried the same way."""
    with _lock:
        _pending.append(Notification(url, [], operator, password, clock.now(),
                                     json_body=json.dumps(payload, ensure_ascii=False)))


def signed_headers(url: str, body: str, operator: str, password: str, now: float,
                   content_type: str = "application/x-www-form-urlencoded;charset=utf-8",
                   ) -> dict[str, str]:
    parts = urlsplit(url)
    uri = parts.path or "/"
    if parts.query:
        uri = f"{uri}?{parts.query}"
    date = formatdate(now, usegmt=True)
    content_md5 = md5_hex(body)
    text = f"POST&{uri}&{date}&{content_md5}"
    digest = hmac.new(md5_hex(password).encode(), text.encode(), hashlib.sha1).digest()
    return {
        "Date": date, "Content-MD5": content_md5,
        "Content-Type": content_type,
        "Authorization": f"{SCHEME} {operator}:{base64.b64encode(digest).decode()}",
    }


def send_due(now: float) -> None:
    """Tick handler: make every call due by `now`."""
    with _lock:
        due = [item for item in _pending if item.due_at <= now]
        for item in due:
            _pending.remove(item)
    for item in due:
        call(item, now)
        with _lock:
            if item.done or len(item.calls) >= CALLS:
                _finished.append(item)
                del _finished[:-KEPT_RESULTS]
            else:
                item.due_at = now + RETRY_AFTER_S
                _pending.append(item)


def call(item: Notification, now: float) -> None:
    body = item.body
    headers = signed_headers(item.url, body, item.operator, item.password, now,
                             item.content_type)
    outcome: dict[str, object] = {"at": now}
    try:
        response = requests.post(item.url, data=body.encode(), headers=headers,
                                 timeout=TIMEOUT_S, allow_redirects=False)
    except requests.RequestException as error:
        logger.info("form notify to %s failed: %s", item.url, error)
        outcome["error"] = f"{type(error).__name__}: {error}"
    else:
        outcome["status"] = response.status_code
        item.done = 200 <= response.status_code < 300
    item.calls.append(outcome)


def reports() -> list[dict[str, object]]:
    with _lock:
        return [item.report() for item in _finished + _pending]


def forget() -> None:
    with _lock:
        _pending.clear()
        _finished.clear()
