"""Load every app's demo data for `make run`.

An app contributes by providing `<app>/demo.py` with `load(stdout) -> None`, idempotent and
talking to the provider through the app's own services (the sandbox, under `make run`). The
menu's pages come first: the console's demo makes the services the other apps' demo data go to.
"""

import importlib
import importlib.util
from typing import Any

from django.core.management.base import BaseCommand

from backoffice.catalogue import MENU_PAGES, SERVICES


class Command(BaseCommand):
    help = "Load the demo data of every app (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        for service in (*MENU_PAGES, *SERVICES):
            module_name = f"{service.app_label}.demo"
            if importlib.util.find_spec(module_name) is None:
                continue
            self.stdout.write(f"Demo data: {service.key}")
            importlib.import_module(module_name).load(self.stdout)
