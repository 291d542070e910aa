"""`backoffice.operations.queue.enqueue` names tasks instead of importing them: every name the code
passes must be a registered task, and a misspelt one must fail loudly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from backoffice.operations.queue import registered_task

ROOT = Path(__file__).resolve().parents[2]
APPS = ("sms", "topup", "storage", "media", "delivery", "backoffice")
ENQUEUED = re.compile(r"enqueue\(\s*\"([\w.]+)\"")


def enqueued_names() -> set[str]:
    return {name for app in APPS for path in (ROOT / app).rglob("*.py")
            for name in ENQUEUED.findall(path.read_text())}


def test_the_code_enqueues_tasks_by_name() -> None:
    assert "sms.tasks.send_campaign" in enqueued_names()


@pytest.mark.parametrize("name", sorted(enqueued_names()))
def test_every_enqueued_name_is_a_registered_task(name: str) -> None:
    assert registered_task(name).name == name


def test_a_misspelt_task_name_fails_at_the_call() -> None:
    with pytest.raises(KeyError):
        registered_task("sms.tasks.send_campaing")
