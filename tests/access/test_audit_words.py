"""The audit log says every entry in words: each action code the services record has a
translated label and summary, the app and the object are named in words, and the CSV uses the
same words as the page (the recorded text kept apart, as evidence)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from backoffice.security import audit
from backoffice.security.audit_words import ACTIONS, APP_LABELS, words

ROOT = Path(__file__).resolve().parents[2]
APPS = ("backoffice", "console", "sms", "topup", "storage", "media", "delivery")
RECORDED = re.compile(r"(?:record|audited)\(\s*(?:\"\w+\"|APP|AUDIT_APP),\s*\"([a-z0-9_.]+)\"")
FLAG_ACTIONS = re.compile(r"\(\"(user\.\w+)\",")


def recorded_actions() -> set[str]:
    found = {"user.permissions", "group.permissions"}  # written as f"{kind}.permissions"
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            found.update(RECORDED.findall(text))
            if path.name == "audit_access_receivers.py":
                found.update(FLAG_ACTIONS.findall(text))
    return found


def test_the_scan_finds_the_actions_of_every_app() -> None:
    found = recorded_actions()
    assert {"login", "ruleset.save", "template.respect_suppression", "api_token.refused",
            "user.superuser", "file.secret", "domain.add"} <= found
    assert len(found) > 50


def test_every_recorded_action_has_a_label_and_a_summary() -> None:
    assert sorted(recorded_actions() - set(ACTIONS)) == []


def test_every_app_of_the_log_has_a_name() -> None:
    assert set(APP_LABELS) >= {"auth", "sms", "topup", "storage", "delivery", "console"}


@pytest.mark.django_db
def test_an_entry_is_said_in_chinese_with_its_object_in_words(make_user) -> None:
    user = make_user("ann")
    entry = audit.record("auth", "user.superuser", target=user, summary="ann made superuser")
    with translation.override("zh-hans"):
        said = words(entry)
    assert said.app == "账户与登录"
    assert said.action == "超级用户身份已更改"
    assert "ann" not in said.object and said.object.endswith(f"#{user.pk}")
    assert said.summary.startswith(said.object) and said.summary.endswith("。")
    assert said.outcome == "成功"


@pytest.mark.django_db
def test_an_unknown_action_is_worded_without_its_code() -> None:
    entry = audit.record("sms", "something.new", target="x")
    with translation.override("en"):
        said = words(entry)
    assert "something.new" not in f"{said.action} {said.summary}"
    assert said.action == "Other action"


@pytest.mark.django_db
def test_the_csv_uses_the_words_of_the_page(make_user):
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(make_user("audrey", "Auditors"))
    audit.record("delivery", "ruleset.save", target="7", summary="rule set 'main': 2 kept")
    page = client.get(reverse("audit_log"), {"app": "delivery"})
    row = page.context["rows"][0]
    export: Any = client.get(reverse("audit_csv"), {"app": "delivery"})
    body = b"".join(export.streaming_content)
    header, line = body.decode().lstrip("\ufeff").splitlines()[:2]
    assert header.split(",")[:8] == ["时间", "人员", "地址", "应用", "操作", "对象", "摘要", "结果"]
    assert f",{row.app},{row.action},{row.object},{row.summary},{row.outcome}," in line
    assert line.endswith(",ruleset.save,rule set 'main': 2 kept")
