"""The browser's direct upload made by a script, for bench/storage_upload.py.

It makes the requests static/storage/direct.js makes (docs/decisions.md, "Direct browser
uploads", "Signing endpoints"): the back-office opens the task and signs; the bytes go
straight to the storage service:

1. `POST /storage/uploads/new/` opens the task (route `direct`, method `multipart`);
2. the initiate is signed, sent to the provider, and its uuid reported;
3. the parts are hashed and signed `SIGN_AHEAD` at a time (the parts already taken riding
   along, as the page does), and sent `in_flight` at once;
4. the completion is signed and sent, and reported (the back-office checks the file).

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
        initiate = self._signed(sign_url, {"stage": "initiate"})[0]
        answer = self._to_provider(initiate, b"")
        self._report(report_url, {"uuid": answer.headers["x-svc-multi-uuid"]})
        self._send_parts(sign_url, upload["part_size"], upload["parts"], upload["in_flight"])
        complete = self._signed(sign_url, {"stage": "complete"})[0]
        answer = self._to_provider(complete, b"")
        done = self._report(report_url, {"done": True, "replaced": answer.status_code == 204})
        return str(done["upload"]["state"])

    def _send_parts(self, sign_url: str, part_size: int, parts: int, in_flight: int) -> None:
        """Hash and sign the next batch while the parts of the one before are on the wire,
        at most `in_flight` at once; the ids taken ride along with the next signing."""
        taken: list[int] = []
        pending: list[Future[int]] = []
        with open(self.source, "rb") as file, ThreadPoolExecutor(in_flight) as senders:
            for batch in _batches(parts, SIGN_AHEAD):
                chunks = {n: os.pread(file.fileno(), part_size, n * part_size) for n in batch}
                finished = {future for future in pending if future.done()}
                taken += [future.result() for future in pending if future in finished]
                pending = [future for future in pending if future not in finished]
                signed = self._signed(sign_url, {
                    "stage": "upload", "parts_done": taken,
                    "parts": [{"id": n, "md5": hashlib.md5(chunks[n]).hexdigest()}
                              for n in batch]})
                pending += [senders.submit(self._send_part, request, chunks[request["part"]])
                            for request in signed]
                # Keep at most two batches of bytes in memory, as the page keeps its Blobs.
                while len(pending) > 2 * SIGN_AHEAD:
                    first = pending.pop(0)
                    taken.append(first.result())
            taken += [future.result() for future in pending]

    def _send_part(self, request: dict[str, Any], chunk: bytes) -> int:
        self._to_provider(request, chunk)
        return int(request["part"])

    def _signed(self, sign_url: str, body: dict[str, Any]) -> list[dict[str, Any]]:
        answer = self.session.post(f"{self.base_url}{sign_url}", json=body, timeout=60)
        if answer.status_code != 200:
            raise SystemExit(f"signing {body['stage']} refused: {answer.status_code} "
                             f"{answer.text[:300]}")
        return list(answer.json()["requests"])

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


def _batches(count: int, size: int) -> Iterator[list[int]]:
    for start in range(0, count, size):
        yield list(range(start, min(start + size, count)))
