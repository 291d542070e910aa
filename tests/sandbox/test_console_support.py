"""Helpers for the console tests (no tests here): a logged-in console client and services
created through the control API, written from docs/decisions.md alone."""

from __future__ import annotations

import secrets
from typing import Any

import requests

from tests.sandbox_process import SandboxProcess


class Console:
    def __init__(self, sandbox: SandboxProcess) -> None:
        self.sandbox = sandbox
        self.url = sandbox.info["console_url"]
        self.token = self.login().json()["access_token"]

    def login(self, **overrides: str) -> requests.Response:
        form = {"username": self.sandbox.info["console"]["username"],
                "password": self.sandbox.info["console"]["password"],
                "code": secrets.token_hex(12), "name": "tests", "scope": "global", **overrides}
        return requests.post(f"{self.url}/oauth/tokens", data=form, timeout=30)

    def request(self, method: str, path: str, *, token: str | None = None,
                **kwargs: Any) -> requests.Response:
        headers = {"Authorization": f"Bearer {token or self.token}"}
        return requests.request(method, self.url + path, headers=headers, timeout=30, **kwargs)

    def get(self, path: str, **params: Any) -> requests.Response:
        return self.request("GET", path, params=params)

    def put(self, path: str, body: dict[str, Any]) -> requests.Response:
        return self.request("PUT", path, json=body)

    def post(self, path: str, body: dict[str, Any]) -> requests.Response:
        return self.request("POST", path, json=body)


def create_service(sandbox: SandboxProcess, **body: Any) -> dict[str, Any]:
    response = sandbox.control("POST", "/console/services", body)
    assert response.status_code == 201, response.text
    return response.json()


def console_error(response: requests.Response, status: int, code: int,
                  field: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error_code"] == code and body["message"] and body["request"], body
    if field is not None:
        assert body["field"] == field, body
    return body
