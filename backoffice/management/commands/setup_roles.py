from typing import Any

from django.core.management.base import BaseCommand

from backoffice.security.roles import setup_roles


class Command(BaseCommand):
    help = "Create or update the staff groups and their permissions (safe to run repeatedly)."

    def handle(self, *args: Any, **options: Any) -> None:
        for name, count in setup_roles().items():
            self.stdout.write(f"{name}: {count} permissions")
