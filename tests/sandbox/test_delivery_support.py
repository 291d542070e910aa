"""Helpers for the CDN edge and purge tests (no tests here), written from the spec alone:
uploads to the storage sandbox signed with the current scheme (DECISIONS.md), the edge's
settings, `_upt` tokens, purge signatures and small images made with Pillow."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
from email.utils import formatdate
from typing import Any
from urllib.parse import quote

import requests
from PIL import Image

from tests.sandbox_process import SandboxProcess


def md5_hex(text: str | bytes) -> str:
    return hashlib.md5(text.encode() if isinstance(text, str) else text).hexdigest()


class Storage:
    """Uploads and deletes through the storage API, `Authorization: SVC <operator>:<base64(
    HMAC-SHA1(md5hex(password), METHOD&PATH&DATE))>`."""

    def __init__(self, sandbox: SandboxProcess) -> None:
        self.sandbox = sandbox
        self.base = sandbox.info["storage_url"]
        self.bucket = sandbox.info["storage"]["bucket"]
        self.operator = sandbox.info["storage"]["operator"]
        self.password = sandbox.info["storage"]["password"]

    def _request(self, method: str, path: str, data: bytes = b"",
                 headers: dict[str, str] | None = None) -> requests.Response:
        uri = quote(f"/{self.bucket}{path}", safe="/")
        date = formatdate(self.sandbox.now(), usegmt=True)
        key = md5_hex(self.password).encode()
        signature = base64.b64encode(
            hmac.new(key, f"{method}&{uri}&{date}".encode(), hashlib.sha1).digest()).decode()
        sent = {"Date": date, "Authorization": f"SVC {self.operator}:{signature}",
                **(headers or {})}
        return requests.request(method, self.base + uri, data=data or None, headers=sent,
                                timeout=30)

    def put(self, path: str, data: bytes, *, secret: str | None = None,
            content_type: str | None = None) -> None:
        headers = {}
        if secret is not None:
            headers["Content-Secret"] = secret
        if content_type is not None:
            headers["Content-Type"] = content_type
        response = self._request("PUT", path, data, headers)
        assert response.status_code == 200, response.text

    def delete(self, path: str) -> None:
        response = self._request("DELETE", path)
        assert response.status_code == 200, response.text


class Edge:
    """Requests to the edge at `delivery_url` and to its settings on the control port."""

    def __init__(self, sandbox: SandboxProcess) -> None:
        self.sandbox = sandbox
        self.url = sandbox.info["delivery_url"]
        self.secret = sandbox.info["delivery"]["token_secret"]

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("allow_redirects", False)
        return requests.get(self.url + path, timeout=30, **kwargs)

    def request(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("allow_redirects", False)
        return requests.request(method, self.url + path, timeout=30, **kwargs)

    def configure(self, **settings: Any) -> dict[str, Any]:
        response = self.sandbox.control("POST", "/delivery/config", settings)
        assert response.status_code == 200, response.text
        return response.json()

    def cache_entries(self) -> list[dict[str, Any]]:
        return self.sandbox.control("GET", "/delivery/cache").json()["entries"]


def upt(secret: str, etime: int, uri: str) -> str:
    """`_upt` of the spec: the middle 8 characters of md5hex(secret&etime&URI), then etime."""
    return md5_hex(f"{secret}&{etime}&{uri}")[12:20] + str(etime)


class Purge:
    """`POST {purge_url}/purge/` signed with md5hex(URLS&BUCKET&DATE&md5hex(password))."""

    def __init__(self, sandbox: SandboxProcess) -> None:
        self.sandbox = sandbox
        self.url = sandbox.info["purge_url"] + "/purge/"
        self.bucket = sandbox.info["storage"]["bucket"]
        self.operator = sandbox.info["storage"]["operator"]
        self.password = sandbox.info["storage"]["password"]

    def authorization(self, urls: str, date: str, *, password: str | None = None,
                      bucket: str | None = None, operator: str | None = None) -> str:
        bucket = bucket or self.bucket
        signature = md5_hex(f"{urls}&{bucket}&{date}&{md5_hex(password or self.password)}")
        return f"SVC {bucket}:{operator or self.operator}:{signature}"

    def send(self, urls: list[str], *, date: str | None = None,
             **signing: Any) -> requests.Response:
        field = "\n".join(urls)
        date = date or formatdate(self.sandbox.now(), usegmt=True)
        headers = {"Date": date, "Authorization": self.authorization(field, date, **signing)}
        return requests.post(self.url, data={"purge": field}, headers=headers, timeout=30)


def image_bytes(width: int, height: int, fmt: str = "PNG", colour: Any = (200, 30, 30),
                mode: str = "RGB", **save: Any) -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, (width, height), colour).save(buffer, format=fmt, **save)
    return buffer.getvalue()


def opened(response: requests.Response) -> Image.Image:
    assert response.status_code == 200, response.text
    image = Image.open(io.BytesIO(response.content))
    image.load()
    return image


def assert_refused(response: requests.Response, status: int, code: str) -> dict[str, Any]:
    """The edge's refusal shape: JSON {code, msg} with the code in X-Error-Code."""
    assert response.status_code == status, response.text
    assert response.headers["X-Error-Code"] == code
    body = response.json()
    assert body["code"] == code and body["msg"], body
    return body
