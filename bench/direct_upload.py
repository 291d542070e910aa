"""The browser's direct upload made by a script, for bench/storage_upload.py.

It makes the requests static/storage/direct.js makes (docs/decisions.md, "Direct browser
uploads", "Signing endpoints"): the back-office opens the task and signs; the bytes go
straight to the storage service:

1. `POST /storage/uploads/new/` opens the task (route `direct`, method `multipart`) and
   answers the initiate's signature with it;
2. the initiate is sent to the provider;
3. the parts are hashed and signed, `in_flight` of them first and then `SIGN_AHEAD` at a time
   (the task's uuid riding along with the first signing, the parts already taken with the
   next ones, and the completion's signature asked with the last parts, as the page does),
   and sent `in_flight` at once;
4. the completion is sent, and reported (the back-office checks the file).

Every request to the back-office goes through `CountingSession`, which adds up the bytes of
each request and its answer as they cross the wire (request line, headers and body; status
line, headers and body): the web node's share of the upload.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import requests

SIGN_AHEAD = 8  # direct.js's batch: enough signatures to keep the parts in flight busy


class CountingSession(requests.Session):
    """A session with the back-office that counts the bytes both ways."""

    def __init__(self) -> None:
        super().__init__()
        self.bytes = 0
        self._lock = threading.Lock()

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        response = super().send(request, **kwargs)
        sent = len(f"{request.method} {request.path_url} HTTP/1.1\r\n")
        sent += sum(len(f"{name}: {value}\r\n") for name, value in request.headers.items()) + 2
        body = request.body or b""
        sent += len(body.encode() if isinstance(body, str) else body)
        received = len(f"HTTP/1.1 {response.status_code} {response.reason}\r\n")
        received += sum(len(f"{name}: {value}\r\n")
                        for name, value in response.headers.items()) + 2
        received += len(response.content)
        with self._lock:
            self.bytes += sent + received
        return response


def log_in(base_url: str, username: str, password: str) -> CountingSession:
    """Signed in through the login form, as a person is; the CSRF token set for the JSON
    requests as the page sets it."""
    session = CountingSession()
    page = session.get(f"{base_url}/accounts/login/", timeout=30)
    token = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)[0]
    answer = session.post(f"{base_url}/accounts/login/", timeout=30, allow_redirects=False,
                          data={"username": username, "password": password,
                                "csrfmiddlewaretoken": token},
                          headers={"Referer": f"{base_url}/accounts/login/"})
    if answer.status_code != 302:
        raise SystemExit(f"signing in failed: {answer.status_code} {answer.text[:300]}")
    session.headers["X-CSRFToken"] = session.cookies["csrftoken"]
    session.headers["Referer"] = f"{base_url}/storage/"
    return session


class DirectUpload:
    """One file sent by the direct route; `run()` returns the task's final state."""

    def __init__(self, session: CountingSession, base_url: str, folder: str,
                 source: Path) -> None:
        self.session = session
        self.base_url = base_url
        self.folder = folder
        self.source = source
        self.size = source.stat().st_size
        self._provider = requests.Session()  # the browser's connection to the provider
        self._provider.mount("http://", requests.adapters.HTTPAdapter(pool_maxsize=16))

    def run(self) -> str:
        opened = self.session.post(f"{self.base_url}/storage/uploads/new/", timeout=60, data={
            "folder": self.folder, "name": self.source.name, "size": str(self.size)})
        if opened.status_code != 201:
            raise SystemExit(f"the upload was not opened: {opened.status_code} {opened.text}")
        upload = opened.json()["upload"]
        if (upload["route"], upload["method"]) != ("direct", "multipart"):
            raise SystemExit(f"expected a direct multipart upload, got {upload['route']} "
                             f"{upload['method']}")
        sign_url, report_url = upload["sign_url"], upload["report_url"]
        answer = self._to_provider(opened.json()["initiate"], b"")
        complete = self._send_parts(sign_url, answer.headers["x-svc-multi-uuid"],
                                    upload["part_size"], upload["parts"], upload["in_flight"])
        answer = self._to_provider(complete, b"")
        done = self._report(report_url, {"done": True, "replaced": answer.status_code == 204})
        return str(done["upload"]["state"])

    def _send_parts(self, sign_url: str, uuid: str, part_size: int, parts: int,
                    in_flight: int) -> dict[str, Any]:
        """Hash and sign the next batch while the parts of the one before are on the wire,
        at most `in_flight` at once; the uuid and the ids taken ride along with the next
        signing. Returns the completion's signed request, given with the last batch."""
        taken: list[int] = []
        pending: list[Future[int]] = []
        report: dict[str, Any] = {"uuid": uuid}
        complete: dict[str, Any] = {}
        with open(self.source, "rb") as file, ThreadPoolExecutor(in_flight) as senders:
            for batch in _batches(parts, in_flight, SIGN_AHEAD):
                chunks = {n: os.pread(file.fileno(), part_size, n * part_size) for n in batch}
                finished = {future for future in pending if future.done()}
                taken += [future.result() for future in pending if future in finished]
                pending = [future for future in pending if future not in finished]
                answer = self._signed(sign_url, {
                    "stage": "upload", **report, "parts_done": taken,
                    "complete": batch[-1] == parts - 1,
                    "parts": [{"id": n, "md5": hashlib.md5(chunks[n]).hexdigest()}
                              for n in batch]})
                report, taken = {}, []
                complete = answer.get("complete") or complete
                pending += [senders.submit(self._send_part, request, chunks[request["part"]])
                            for request in answer["requests"]]
                # Keep at most two batches of bytes in memory, as the page keeps its Blobs.
                while len(pending) > 2 * SIGN_AHEAD:
                    first = pending.pop(0)
                    taken.append(first.result())
            for future in pending:
                future.result()
        return complete

    def _send_part(self, request: dict[str, Any], chunk: bytes) -> int:
        self._to_provider(request, chunk)
        return int(request["part"])

    def _signed(self, sign_url: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = self.session.post(f"{self.base_url}{sign_url}", json=body, timeout=60)
        if answer.status_code != 200:
            raise SystemExit(f"signing {body['stage']} refused: {answer.status_code} "
                             f"{answer.text[:300]}")
        return dict(answer.json())

    def _report(self, report_url: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = self.session.post(f"{self.base_url}{report_url}", json=body, timeout=120)
        if answer.status_code != 200:
            raise SystemExit(f"report refused: {answer.status_code} {answer.text[:300]}")
        return dict(answer.json())

    def _to_provider(self, signed: dict[str, Any], body: bytes) -> requests.Response:
        answer = self._provider.request(signed["method"], signed["url"], data=body,
                                        headers=signed["headers"], timeout=120)
        if answer.status_code not in (200, 201, 204):
            raise SystemExit(f"the provider refused {signed['method']} {signed['url']}: "
                             f"{answer.status_code} {answer.text[:300]}")
        return answer


def _batches(count: int, first: int, size: int) -> Iterator[list[int]]:
    """Part ids in batches: `first` of them, so that the first bytes leave early, then
    `size` at a time."""
    start, step = 0, min(first, size)
    while start < count:
        yield list(range(start, min(start + step, count)))
        start, step = start + step, size
