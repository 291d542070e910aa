"""Helpers of the top-up emulator tests (no tests here): a small client that signs and
encrypts as DECISIONS "Top-up" says, and an HTTP receiver for the callbacks.

The client is written from the spec for the tests only; each sign string is spelled out in the
order and with the names of its interface, so that the tests read as the protocol does.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import requests
from Crypto.Cipher import AES
from Crypto.Util.Padding import pad

from tests.sandbox_process import SandboxProcess

CMCC_NUMBER = "13800138000"
CUCC_NUMBER = "13012345678"
CTCC_NUMBER = "18912345678"

_custnos = itertools.count(1)


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def encrypt_mobile(mobile: str, token: str, appkey: str) -> str:
    cipher = AES.new(token.encode(), AES.MODE_CBC, iv=appkey.encode())
    return base64.b64encode(cipher.encrypt(pad(mobile.encode(), 16))).decode()


def new_custno() -> str:
    return f"T{next(_custnos):06d}"


class TopupClient:
    """Calls the emulated top-up interfaces of a running sandbox."""

    def __init__(self, sandbox: SandboxProcess) -> None:
        self.sandbox = sandbox
        self.url = sandbox.info["traffic_url"]
        self.appkey: str = sandbox.info["topup"]["appkey"]
        self.appsecret: str = sandbox.info["topup"]["appsecret"]
        self.token = ""

    def post(self, path: str, body: Any) -> dict[str, Any]:
        response = requests.post(f"{self.url}{path}", json=body, timeout=30)
        assert response.status_code == 200, response.text
        return response.json()

    def refresh_token(self) -> str:
        answer = self.post("/refreshToken", {"appkey": self.appkey, "appsecret": self.appsecret})
        assert answer["code"] == "200", answer
        self.token = answer["token"]
        return self.token

    def charge_body(self, mobile: str = CMCC_NUMBER, prodcode: str = "CMCC_10",
                    custno: str | None = None, **extra: Any) -> dict[str, Any]:
        custno = custno or new_custno()
        encrypted = encrypt_mobile(mobile, self.token, self.appkey)
        text = f"appkey{self.appkey}custno{custno}mobile{encrypted}prodcode{prodcode}" \
               f"token{self.token}"
        return {"appkey": self.appkey, "mobile": encrypted, "prodcode": prodcode,
                "custno": custno, "sign": sha1(text), **extra}

    def charge(self, mobile: str = CMCC_NUMBER, prodcode: str = "CMCC_10",
               custno: str | None = None, **extra: Any) -> dict[str, Any]:
        return self.post("/chargeOrder", self.charge_body(mobile, prodcode, custno, **extra))

    def seek(self, custno: str, requesttime: str | None = None) -> dict[str, Any]:
        if requesttime is None:
            text = f"appkey{self.appkey}custno{custno}TOKEN{self.token}"
            body = {"appkey": self.appkey, "custno": custno, "sign": sha1(text)}
        else:
            text = f"appkey{self.appkey}custno{custno}requesttime{requesttime}TOKEN{self.token}"
            body = {"appkey": self.appkey, "custno": custno, "requesttime": requesttime,
                    "sign": sha1(text)}
        return self.post("/seekOrder", body)

    def balance(self) -> dict[str, Any]:
        text = f"appkey{self.appkey}TOKEN{self.token}"
        return self.post("/getMyBalance", {"appkey": self.appkey, "sign": sha1(text)})

    def settings(self, **fields: Any) -> dict[str, Any]:
        response = self.sandbox.control("POST", "/topup/settings", fields)
        assert response.status_code == 200, response.text
        return response.json()

    def rule(self, **fields: Any) -> dict[str, Any]:
        response = self.sandbox.control("POST", "/topup/rules", fields)
        assert response.status_code == 201, response.text
        return response.json()

    def orders(self) -> list[dict[str, Any]]:
        return self.sandbox.control("GET", "/topup/orders").json()["orders"]

    def order(self, custno: str) -> dict[str, Any]:
        [order] = self.sandbox.control("GET", f"/topup/orders?custno={custno}").json()["orders"]
        return order

    def callbacks(self) -> list[dict[str, Any]]:
        return self.sandbox.control("GET", "/topup/callbacks").json()["callbacks"]


Reply = tuple[int, str]  # HTTP status, body


class CallbackReceiver:
    """The merchant's callback address: records every call, answers with the next reply."""

    def __init__(self, replies: Callable[[int], Reply]) -> None:
        self.replies = replies
        self.calls: list[dict[str, Any]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the http.server hook's name
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length)
                receiver.calls.append({"content_type": self.headers.get("Content-Type"),
                                       "body": json.loads(raw)})
                status, text = receiver.replies(len(receiver.calls))
                encoded = text.encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(encoded)))
                self.end_headers()
                self.wfile.write(encoded)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/topup/callback"

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [call["body"] for call in self.calls]


ACK: Reply = (200, '{"info": "1"}')


@contextmanager
def receiving(replies: Callable[[int], Reply] = lambda call: ACK) -> Iterator[CallbackReceiver]:
    """A CallbackReceiver serving on a free loopback port for the duration of the block."""
    receiver = CallbackReceiver(replies)
    thread = threading.Thread(target=receiver.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        receiver.server.shutdown()
        receiver.server.server_close()
