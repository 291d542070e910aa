import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandParser

from backoffice.security.otp import forget_devices
from backoffice.security.roles import ROLE_NAMES, setup_roles


class Command(BaseCommand):
    help = (
        "Create (or reset) the demo staff user with a fresh generated password and print both. "
        "The user is a superuser in every group, so a newcomer can try every page."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="demo")

    def handle(self, *args: Any, **options: Any) -> None:
        setup_roles()
        password = secrets.token_urlsafe(12)
        user, _ = get_user_model().objects.get_or_create(username=options["username"])
        user.is_staff = True
        user.is_superuser = True
        user.set_password(password)
        user.save()
        user.groups.set(Group.objects.filter(name__in=ROLE_NAMES))
        # Password only: a newcomer signs in with what is printed (no second factor to reset).
        forget_devices(user)
        self.stdout.write(self.style.SUCCESS(
            f"Demo staff user: {user.username}  password: {password}"))
