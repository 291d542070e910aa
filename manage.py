#!/usr/bin/env python
"""Command-line entry point for the back-office and for the provider sandbox.

The sandbox is a separate Django project with its own settings and database. Commands that
belong to it (`runsandbox`) are run under `sandbox.settings`; everything else under
`backoffice.settings`. `python manage.py sandbox <command>` runs any other Django command
(makemigrations, shell, ...) under the sandbox's settings. `--data-dir` is read here because the
sandbox's database lives in it and must be known before Django is set up.
"""

import os
import sys

SANDBOX_COMMANDS = {"runsandbox"}


def option_value(argv: list[str], name: str) -> str | None:
    """Return the value of `--name VALUE` or `--name=VALUE` in argv, if present."""
    for index, arg in enumerate(argv):
        if arg == name and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def main() -> None:
    settings_module = "backoffice.settings"
    if len(sys.argv) > 1 and sys.argv[1] == "sandbox":
        del sys.argv[1]
        settings_module = "sandbox.settings"
    if len(sys.argv) > 1 and sys.argv[1] in SANDBOX_COMMANDS:
        settings_module = "sandbox.settings"
        data_dir = option_value(sys.argv, "--data-dir")
        if data_dir:
            os.environ["SANDBOX_DATA_DIR"] = os.path.abspath(data_dir)
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
