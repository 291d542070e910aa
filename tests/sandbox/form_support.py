"""Signed FORM API uploads to the sandbox (api/form_api.md), for the sandbox's tests."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any

import requests

from tests.sandbox.test_storage_client import md5_hex


def encode_policy(fields: dict[str, Any]) -> str:
    return base64.b64encode(json.dumps(fields).encode()).decode()


def body_signature(uri: str, policy: str, password: str, date: str = "",
                   content_md5: str = "") -> str:
    """api/authorization.md, "放在 HTTP Body 中": POST&URI[&Date]&Policy[&Content-MD5]."""
    parts = ["POST", uri, *([date] if date else []), policy,
             *([content_md5] if content_md5 else [])]
    key = md5_hex(password).encode()
    return base64.b64encode(hmac.new(key, "&".join(parts).encode(), hashlib.sha1).digest()).decode()


class FormClient:
    """Form uploads to the sandbox's bucket; the expiration follows the sandbox clock."""

    def __init__(self, sandbox: Any) -> None:
        self.sandbox = sandbox
        self.base = sandbox.info["storage_url"]
        self.bucket = sandbox.info["storage"]["bucket"]
        self.operator = sandbox.info["storage"]["operator"]
        self.password = sandbox.info["storage"]["password"]

    def policy(self, save_key: str = "/form/file.txt", **extra: Any) -> dict[str, Any]:
        return {"bucket": self.bucket, "save-key": save_key,
                "expiration": int(self.sandbox.now()) + 1800, **extra}

    def post(self, policy: dict[str, Any] | None = None, data: bytes = b"hello form",
             filename: str = "file.txt", *, bucket: str | None = None, password: str | None = None,
             operator: str | None = None, authorization: str | None = None,
             fields: dict[str, str] | None = None, with_file: bool = True,
             headers: dict[str, str] | None = None, allow_redirects: bool = False,
             ) -> requests.Response:
        uri = f"/{bucket or self.bucket}"
        encoded = encode_policy(policy if policy is not None else self.policy())
        raw = policy if policy is not None else {}
        signature = body_signature(uri, encoded, password or self.password,
                                   str(raw.get("date", "")), str(raw.get("content-md5", "")))
        form = {"policy": encoded,
                "authorization": authorization if authorization is not None
                else f"SVC {operator or self.operator}:{signature}", **(fields or {})}
        files = {"file": (filename, data)} if with_file else {"none": ("", b"")}
        return requests.post(self.base + uri, data=form, files=files, headers=headers,
                             allow_redirects=allow_redirects, timeout=60)
