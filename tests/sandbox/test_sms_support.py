"""Helpers for the SMS emulator tests (no tests here): a thin HTTP client for the SMS API and
its control endpoints, written from the spec, independent of the back-office client."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import requests

from tests.sandbox_process import SandboxProcess

SHANGHAI = timezone(timedelta(hours=8))
NUMBER = "13800138000"
OTHER_NUMBER = "13900139000"
UNSET = object()


def template_fields(**overrides: Any) -> dict[str, Any]:
    fields = {"title": "验证码", "content": "您的验证码是{$var1}，5分钟内有效",
              "temp_sign": "落子時", "sign_location": "bottom", "type": "industry",
              "report_type": "general"}
    fields.update(overrides)
    return fields


def shanghai_day(unix_seconds: float) -> str:
    return datetime.fromtimestamp(unix_seconds, tz=UTC).astimezone(SHANGHAI).strftime("%Y-%m-%d")


def error_of(response: requests.Response) -> tuple[int, str]:
    """(HTTP status, error_code) of a refused request, after checking the error body shape."""
    body = response.json()
    assert set(body) == {"error_code", "message"}, body
    assert body["message"], "the message must add detail"
    return response.status_code, body["error_code"]


class SmsApi:
    def __init__(self, sandbox: SandboxProcess) -> None:
        self.sandbox = sandbox
        self.url = sandbox.info["sms_api_url"]
        self.token = sandbox.info["sms"]["token"]

    def request(self, method: str, path: str, *, token: Any = UNSET,
                **kwargs: Any) -> requests.Response:
        headers = dict(kwargs.pop("headers", {}))
        if token is UNSET:
            token = self.token
        if token is not None:
            headers["Authorization"] = token
        return requests.request(method, f"{self.url}{path}", headers=headers, timeout=30,
                                **kwargs)

    # --- templates
    def create_template(self, **overrides: Any) -> requests.Response:
        return self.request("POST", "/api/templates", json=template_fields(**overrides))

    def created_template(self, **overrides: Any) -> dict[str, Any]:
        response = self.create_template(**overrides)
        assert response.status_code == 201, response.text
        return response.json()

    def review(self, template_id: int, status: str) -> requests.Response:
        return self.sandbox.control("POST", f"/sms/templates/{template_id}/review",
                                    {"status": status})

    def approved_template(self, **overrides: Any) -> dict[str, Any]:
        template = self.created_template(**overrides)
        response = self.review(template["id"], "success")
        assert response.status_code == 200, response.text
        return response.json()

    def templates(self, **query: str) -> requests.Response:
        return self.request("GET", "/api/templates", params=query)

    def edit(self, template_id: Any, **fields: Any) -> requests.Response:
        return self.request("PATCH", f"/api/templates/{template_id}", json=fields)

    # --- messages
    def send(self, mobile: str, template_id: Any, vars: str | None = None, *,
             form: bool = False) -> requests.Response:
        body: dict[str, Any] = {"mobile": mobile, "template_id": template_id}
        if vars is not None:
            body["vars"] = vars
        if form:
            return self.request("POST", "/api/messages", data=body)
        return self.request("POST", "/api/messages", json=body)

    def sent_items(self, mobile: str, template_id: int, vars: str | None = "1234"
                   ) -> list[dict[str, Any]]:
        response = self.send(mobile, template_id, vars)
        assert response.status_code == 200, response.text
        return response.json()["message_ids"]

    def report(self, **query: Any) -> requests.Response:
        return self.request("GET", "/api/messages", params=query)

    def messages(self, **query: Any) -> list[dict[str, Any]]:
        response = self.report(per_page=100, **query)
        assert response.status_code == 200, response.text
        return response.json()["messages"]

    # --- control
    def settings(self, **fields: Any) -> dict[str, Any]:
        response = self.sandbox.control("POST", "/sms/settings", fields)
        assert response.status_code == 200, response.text
        return response.json()

    def force_outcome(self, mobile: str, status: str) -> None:
        response = self.sandbox.control("POST", "/sms/outcomes",
                                        {"mobile": mobile, "status": status})
        assert response.status_code == 201, response.text
