"""`sign_url` and `rewrite_test`: scripting entry points with clear errors."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from delivery.client import upt_token

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def configured(settings: Any, domain: Any) -> None:
    settings.PROVIDER["delivery"] = {"delivery_url": "http://cdn.example.com",
                                     "purge_url": "http://purge.example.com",
                                     "token_secret": "abc123"}


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue().strip()


def test_sign_url_prints_a_signed_url() -> None:
    url = run("sign_url", "/photos/2024/sea.jpg", "--until", "1700000000", "--upp", "2")
    assert url == ("http://cdn.example.com/photos/2024/sea.jpg?_upt="
                   + upt_token("abc123", "/photos/2024/sea.jpg", 1700000000, 2) + "&_upp=2")
    assert upt_token("abc123", "/photos/2024/sea.jpg", 1700000000, 2) == \
        "06f632271700000000"


def test_sign_url_refuses_bad_input_clearly() -> None:
    with pytest.raises(CommandError, match="_upp: is deeper than the path"):
        run("sign_url", "/a.jpg", "--upp", "3")
    with pytest.raises(CommandError, match="path: must start with '/'"):
        run("sign_url", "a.jpg")
    with pytest.raises(CommandError, match="positive"):
        run("sign_url", "/a.jpg", "--expires-in", "0")


def test_rewrite_test_prints_the_trace(tmp_path: Path) -> None:
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps([
        {"pattern": r"^/old/(.*)$", "rule": "$REDIRECT(/new/$1, 301)", "state": "enabled"},
        {"pattern": r"/(.*)/playlist\.m3u8$", "rule": "/$1'.m3u8'", "state": "enabled"},
        {"pattern": "", "rule": "$ADD_RSP_HEADER(X-A, $_COOKIE_sid, )", "state": "test"},
    ]))
    out = run("rewrite_test", str(rules), "http://cdn.example.com/app/stream/playlist.m3u8",
              "-b", "sid=42", "--preview")
    lines = out.splitlines()
    assert lines[0].startswith("rule 1: not-matched")
    assert lines[1].startswith("rule 2: applied") and "-> '/app/stream.m3u8'" in lines[1]
    assert lines[2].startswith("rule 3: applied")
    assert "final URL: /app/stream.m3u8 (rewritten by rule 2)" in out
    assert "response header add X-A: 42" in out


def test_rewrite_test_json_output(tmp_path: Path) -> None:
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps([{"pattern": "", "rule": "$EXIT(403, no)", "state": "enabled"}]))
    data = json.loads(run("rewrite_test", str(rules), "/a", "--json"))
    assert data["exit"] == {"kind": "exit", "status": 403, "body": "no"}


def test_rewrite_test_reports_syntax_errors_and_fails(tmp_path: Path) -> None:
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps([{"pattern": "", "rule": "$WHEN($EQ(a, b)", "state": "enabled"}]))
    err = io.StringIO()
    with pytest.raises(CommandError, match="syntax errors"):
        call_command("rewrite_test", str(rules), "/a", stdout=io.StringIO(), stderr=err)
    assert "rule 1: rule 1:6:" in err.getvalue()


@pytest.mark.parametrize(("content", "message"), [
    ("not json", "not JSON"),
    ('{"rule": "/a"}', "JSON list"),
    ('[{"pattern": "x"}]', "rule 1 must be an object"),
])
def test_rewrite_test_refuses_bad_files(tmp_path: Path, content: str, message: str) -> None:
    rules = tmp_path / "rules.json"
    rules.write_text(content)
    with pytest.raises(CommandError, match=message):
        run("rewrite_test", str(rules), "/a")


def test_rewrite_test_refuses_a_missing_file_and_bad_headers(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="No such file"):
        run("rewrite_test", str(tmp_path / "none.json"), "/a")
    rules = tmp_path / "rules.json"
    rules.write_text("[]")
    with pytest.raises(CommandError, match="headers line 1"):
        run("rewrite_test", str(rules), "/a", "-H", "no colon")
