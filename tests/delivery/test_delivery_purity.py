"""The protocol client, the pure rules and the tester import no Django (ARCHITECTURE: client.py
and rules.py are provider protocol and spec rules only), so they run in any Python process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_client_rules_and_tester_load_without_django() -> None:
    code = ("import sys; import delivery.client, delivery.rules, delivery.tester; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('django', 'celery', 'backoffice', 'rest_framework')); print(bad)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == "[]"
