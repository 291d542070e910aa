"""Refresh the Simplified Chinese catalogues and compile them (`make messages`).

Each service app keeps its own catalogue (`<app>/locale/`), so the teams working on different
apps never edit the same file; the project's templates and `backoffice` use `locale/`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("console", "sms", "topup", "storage", "media", "delivery")
NOT_PROJECT = (*APPS, "sandbox", "edgerules", "providerkit", "tests", "bench", ".venv", "var",
               "scripts", "docs")
LANGUAGE = "zh_Hans"


def django_admin(*args: str, cwd: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DJANGO_SETTINGS_MODULE": "backoffice.settings",
           "DEBUG": "true"}
    subprocess.run([sys.executable, "-m", "django", *args], cwd=cwd, env=env, check=True)


def main() -> None:
    ignores = [arg for name in NOT_PROJECT for arg in ("--ignore", f"{name}/*")]
    django_admin("makemessages", "-l", LANGUAGE, "--no-obsolete", *ignores, cwd=ROOT)
    django_admin("makemessages", "-d", "djangojs", "-l", LANGUAGE, "--no-obsolete", *ignores,
                 cwd=ROOT)
    for app in APPS:
        (ROOT / app / "locale").mkdir(exist_ok=True)
        django_admin("makemessages", "-l", LANGUAGE, "--no-obsolete", cwd=ROOT / app)
    django_admin("compilemessages", "-l", LANGUAGE, "--ignore", ".venv/*", cwd=ROOT)


if __name__ == "__main__":
    main()
