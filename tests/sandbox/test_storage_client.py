"""The small signed storage client the storage tests share, and the proof that it (and the
sandbox's own verifier) sign exactly as DECISIONS.md says: both schemes against examples
computed by hand with md5sum and openssl.

    PWMD5=$(printf '%s' 's3cret-Passw0rd' | md5sum)            -> 9e1f5e2980bd3ae5ac8c595611aefc6a
    printf '%s' "PUT&/demo-bucket/photos/cat%20one.jpg&$D&1024&$PWMD5" | md5sum
    printf '%s' "PUT&/demo-bucket/photos/cat%20one.jpg&$D" | openssl dgst -sha1 -hmac "$PWMD5" \
        -binary | base64
with D='Wed, 09 Jul 2025 10:00:00 GMT'.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from email.utils import formatdate
from typing import Any
from urllib.parse import quote

import pytest
import requests

from sandbox.storage import signature as sandbox_signature
from sandbox.storage.errno import MESSAGES as ERRNO_MESSAGES

PASSWORD = "s3cret-Passw0rd"
DATE = "Wed, 09 Jul 2025 10:00:00 GMT"


def md5_hex(data: str | bytes) -> str:
    return hashlib.md5(data.encode() if isinstance(data, str) else data).hexdigest()


def legacy_signature(method: str, uri: str, date: str, length: int, password: str) -> str:
    return md5_hex(f"{method}&{uri}&{date}&{length}&{md5_hex(password)}")


def current_signature(method: str, uri: str, date: str, password: str,
                      content_md5: str = "") -> str:
    text = f"{method}&{uri}&{date}" + (f"&{content_md5}" if content_md5 else "")
    key = md5_hex(password).encode()
    return base64.b64encode(hmac.new(key, text.encode(), hashlib.sha1).digest()).decode()


class StorageClient:
    """Signed requests to the sandbox's storage API; the Date follows the sandbox clock."""

    def __init__(self, sandbox: Any, scheme: str = "current") -> None:
        self.sandbox = sandbox
        self.base = sandbox.info["storage_url"]
        self.bucket = sandbox.info["storage"]["bucket"]
        self.operator = sandbox.info["storage"]["operator"]
        self.password = sandbox.info["storage"]["password"]
        self.scheme = scheme

    def date(self, offset_s: float = 0) -> str:
        return formatdate(self.sandbox.now() + offset_s, usegmt=True)

    def uri(self, path: str, query: str = "", bucket: str | None = None) -> str:
        encoded = quote(f"/{bucket or self.bucket}{path}", safe="/")
        return f"{encoded}?{query}" if query else encoded

    def request(self, method: str, path: str, data: bytes = b"", *, query: str = "",
                headers: dict[str, str] | None = None, scheme: str | None = None,
                date: str | None = None, bucket: str | None = None,
                operator: str | None = None, password: str | None = None,
                sign: bool = True) -> requests.Response:
        headers = dict(headers or {})
        uri = self.uri(path, query, bucket)
        headers.setdefault("Date", date or self.date())
        if sign:
            headers["Authorization"] = self.authorization(
                method, uri, headers, len(data), scheme or self.scheme, operator, password)
        return requests.request(method, self.base + uri, data=data or None, headers=headers,
                                timeout=60)

    def authorization(self, method: str, uri: str, headers: dict[str, str], length: int,
                      scheme: str, operator: str | None, password: str | None) -> str:
        secret = password or self.password
        if scheme == "legacy":
            signed_length = 0 if method in ("GET", "DELETE") else length
            signature = legacy_signature(method, uri, headers["Date"], signed_length, secret)
        else:
            signature = current_signature(method, uri, headers["Date"], secret,
                                          headers.get("Content-MD5", ""))
        return f"SVC {operator or self.operator}:{signature}"

    def put(self, path: str, data: bytes = b"", **kwargs: Any) -> requests.Response:
        return self.request("PUT", path, data, **kwargs)

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        return self.request("GET", path, **kwargs)

    def head(self, path: str, **kwargs: Any) -> requests.Response:
        return self.request("HEAD", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> requests.Response:
        return self.request("DELETE", path, **kwargs)

    def mkdir(self, path: str, **kwargs: Any) -> requests.Response:
        headers = {"folder": "true", **kwargs.pop("headers", {})}
        return self.request("POST", path, headers=headers, **kwargs)

    def patch(self, path: str, query: str = "metadata=merge", **kwargs: Any) -> requests.Response:
        return self.request("PATCH", path, query=query, **kwargs)


def assert_error(response: requests.Response, code: int) -> dict[str, Any]:
    """The protocol's error shape: JSON {msg, code, id, detail} with HTTP status code // 100000,
    `msg` exactly the error table's message for the code (api/errno.md), our words in `detail`."""
    assert response.status_code == code // 100000, response.text
    body = response.json()
    assert body["code"] == code, body
    assert body["msg"] == ERRNO_MESSAGES[code], body
    assert body["id"]
    return body


def test_the_password_digest_matches_md5sum():
    assert md5_hex(PASSWORD) == "9e1f5e2980bd3ae5ac8c595611aefc6a"


@pytest.mark.parametrize("sign", [legacy_signature, sandbox_signature.legacy_signature])
def test_legacy_signatures_match_md5sum(sign):
    assert sign("PUT", "/demo-bucket/photos/cat%20one.jpg", DATE, 1024, PASSWORD) == \
        "8c540fc0728106f9355ddf2cc2be24f9"
    assert sign("GET", "/demo-bucket/?usage", DATE, 0, PASSWORD) == \
        "36800ed77cbb2de87feef853a5b9fbc0"
    assert sign("GET", "/demo-bucket/%E4%B8%AD%E6%96%87/a.txt", DATE, 0, PASSWORD) == \
        "ac862a7b1cc584eae486cfea2061c76b"


@pytest.mark.parametrize("sign", [current_signature, sandbox_signature.current_signature])
def test_current_signatures_match_openssl(sign):
    uri = "/demo-bucket/photos/cat%20one.jpg"
    assert sign("PUT", uri, DATE, PASSWORD) == "R30woyZjfoPGyjdcEqUOlAKqppM="
    assert sign("PUT", uri, DATE, PASSWORD, "7ac66c0f148de9519b8bd264312c4d64") == \
        "8IIXt/4aA/K/T9j2PtBPGu5kxqM="
    assert sign("PATCH", "/demo-bucket/a.txt?metadata=merge", DATE, PASSWORD) == \
        "GRcJm5ih4W39VNhOvaZdK5AJc+8="


def test_the_sandbox_encodes_the_path_as_the_examples_do():
    assert sandbox_signature.signed_path("/demo-bucket/photos/cat one.jpg") == \
        "/demo-bucket/photos/cat%20one.jpg"
    assert sandbox_signature.signed_path("/demo-bucket/中文/a.txt") == \
        "/demo-bucket/%E4%B8%AD%E6%96%87/a.txt"
    assert sandbox_signature.signed_path("/demo-bucket/", "usage") == "/demo-bucket/?usage"


def test_the_sandbox_accepts_either_scheme_and_nothing_else():
    common: dict[str, Any] = {"method": "PUT", "path": "/demo-bucket/photos/cat%20one.jpg",
                              "date": DATE, "content_length": 1024, "password": PASSWORD}
    assert sandbox_signature.signature_matches("8c540fc0728106f9355ddf2cc2be24f9",
                                               content_md5="", **common)
    assert sandbox_signature.signature_matches("8IIXt/4aA/K/T9j2PtBPGu5kxqM=",
                                               content_md5="7ac66c0f148de9519b8bd264312c4d64",
                                               **common)
    assert not sandbox_signature.signature_matches("R30woyZjfoPGyjdcEqUOlAKqppM=",
                                                   content_md5="7ac66c0f148de9519b8bd264312c4d64",
                                                   **common)
    assert not sandbox_signature.signature_matches("8c540fc0728106f9355ddf2cc2be24f9",
                                                   content_md5="", **{**common,
                                                                      "content_length": 1023})


def test_the_error_table_holds_the_docs_messages_verbatim():
    """A few rows of api/errno.md, as an official SDK compares them."""
    assert ERRNO_MESSAGES[40011061] == "part id error"
    assert ERRNO_MESSAGES[40000003] == "need bucket name"
    assert ERRNO_MESSAGES[40300001] == "file name contains invalid chars (\\r\\n\\t)"
    assert ERRNO_MESSAGES[40011058] == "invalid x-svc-multi-uuid not found"
    assert ERRNO_MESSAGES[40000041] == "source key equals to target key"
    assert len(ERRNO_MESSAGES) == 258
