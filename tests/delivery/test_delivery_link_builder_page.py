"""The link builder page: each builder's result, the expiry picker, and errors on the field."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from delivery.client import upt_token

pytestmark = pytest.mark.django_db
BASE = "http://cdn.example.com"


@pytest.fixture(autouse=True)
def configured(settings: Any) -> None:
    settings.PROVIDER["delivery"] = {"delivery_url": BASE, "purge_url": "http://p.example.com",
                                     "token_secret": "abc123"}


def build(client: Any, kind: str, **fields: str) -> Any:
    data = {"kind": kind, **{f"{kind}-{name}": value for name, value in fields.items()}}
    return client.post(reverse("delivery:links"), data)


def result(response: Any, kind: str) -> str:
    sections = {s["kind"]: s for s in response.context["sections"]}
    return sections[kind]["result"]


def errors(response: Any, kind: str) -> dict[str, list[str]]:
    sections = {s["kind"]: s for s in response.context["sections"]}
    return sections[kind]["form"].errors


def test_a_signed_link_with_a_preset_lifetime_and_level(manager_client: Any) -> None:
    before = int(time.time())
    response = build(manager_client, "signed", path="/shop/items/1.jpg", expires_in="3600",
                     upp="1")
    url = result(response, "signed")
    etime = int(url.split("_upt=")[1][8:].split("&")[0])
    assert before + 3600 <= etime <= int(time.time()) + 3600
    assert url == (f"{BASE}/shop/items/1.jpg?_upt="
                   f"{upt_token('abc123', '/shop/items/1.jpg', etime, 1)}&_upp=1")


def test_a_signed_link_until_a_chosen_time(manager_client: Any) -> None:
    until = timezone.localtime() + timedelta(days=2)
    response = build(manager_client, "signed", path="/a.jpg", expires_in="custom",
                     expires_at=until.strftime("%Y-%m-%dT%H:%M"))
    url = result(response, "signed")
    assert url.endswith(str(int(until.replace(second=0, microsecond=0).timestamp())))


def test_a_chosen_time_in_the_past_is_refused(manager_client: Any) -> None:
    past = timezone.localtime() - timedelta(hours=1)
    response = build(manager_client, "signed", path="/a.jpg", expires_in="custom",
                     expires_at=past.strftime("%Y-%m-%dT%H:%M"))
    assert errors(response, "signed")["expires_at"] == ["Pick a time in the future."]
    response = build(manager_client, "signed", path="/a.jpg", expires_in="custom")
    assert errors(response, "signed")["expires_at"]


def test_a_level_deeper_than_the_path_is_refused_on_the_level_field(manager_client: Any) -> None:
    response = build(manager_client, "signed", path="/a/b.jpg", expires_in="300", upp="3")
    assert "deeper than the path" in errors(response, "signed")["upp"][0]


def test_a_suffix_must_start_with_the_separator(manager_client: Any) -> None:
    response = build(manager_client, "signed", path="/a.jpg", expires_in="300", suffix="thumb")
    assert errors(response, "signed")["suffix"]
    ok = build(manager_client, "signed", path="/a.jpg", expires_in="300", suffix="!thumb")
    assert result(ok, "signed").startswith(f"{BASE}/a.jpg!thumb?_upt=")


def test_the_other_builders(manager_client: Any) -> None:
    assert result(build(manager_client, "secret", path="/a.jpg", secret="S3"), "secret") == \
        f"{BASE}/a.jpg!S3"
    assert result(build(manager_client, "download", path="/a.pdf", name="报告.pdf"),
                  "download") == f"{BASE}/a.pdf?_upd=%E6%8A%A5%E5%91%8A.pdf"
    assert result(build(manager_client, "bypass", path="/a.js", upv="05"), "bypass") == \
        f"{BASE}/a.js?_upv=05"
    assert result(build(manager_client, "combine", directory="/js", files="a.js\nb.js"),
                  "combine") == f"{BASE}/js/!!a.js,b.js"


def test_a_download_link_may_be_signed(manager_client: Any) -> None:
    url = result(build(manager_client, "download", path="/a.pdf", sign="on",
                       expires_in="300"), "download")
    assert url.startswith(f"{BASE}/a.pdf?_upd=true&_upt=")


def test_builder_errors_name_their_field(manager_client: Any) -> None:
    assert "two digits" in errors(build(manager_client, "bypass", path="/a.js", upv="5x"),
                                  "bypass")["upv"][0]
    assert "Line 2" in errors(build(manager_client, "combine", directory="/js",
                                    files="a.js\nb.txt"), "combine")["files"][0]
    assert errors(build(manager_client, "secret", path="a.jpg", secret="S3"), "secret")["path"]


def test_a_path_from_the_file_browser_is_filled_in(manager_client: Any) -> None:
    response = manager_client.get(reverse("delivery:links") + "?path=/photos/a.jpg")
    assert 'value="/photos/a.jpg"' in response.content.decode()


def test_a_missing_secret_is_reported_not_crashed(manager_client: Any, settings: Any) -> None:
    settings.PROVIDER["delivery"]["token_secret"] = None
    response = build(manager_client, "signed", path="/a.jpg", expires_in="300")
    assert response.status_code == 200
    assert "DELIVERY_TOKEN_SECRET" in " ".join(response.context["page_errors"])
