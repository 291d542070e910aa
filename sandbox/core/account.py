"""The demo account: created once per data directory with fresh random credentials.

Its row never changes after creation (a reset keeps it), so each process reads it once:
every authenticated request needs it, some several times.
"""

from __future__ import annotations

import secrets
import string
from collections.abc import Callable

from django.db import transaction

from sandbox.core.models import Account

ALPHANUMERIC = string.ascii_letters + string.digits

# What other apps add to a fresh account (the console's first storage service), run inside
# the same transaction each time the account is ensured: at start and after every reset.
EnsureHandler = Callable[[Account], None]
_ensure_handlers: list[EnsureHandler] = []


def on_ensure(handler: EnsureHandler) -> EnsureHandler:
    if handler not in _ensure_handlers:
        _ensure_handlers.append(handler)
    return handler


def random_text(length: int) -> str:
    return "".join(secrets.choice(ALPHANUMERIC) for _ in range(length))


@transaction.atomic
def ensure_account() -> Account:
    account = Account.objects.select_for_update().first()
    if account is None:
        account = Account.objects.create(
            sms_token=random_text(32),
            topup_appkey=random_text(16),  # DECISIONS: appkeys and tokens are 16 characters
            topup_appsecret=random_text(32),
            storage_bucket="demo-bucket",
            storage_operator="demo-operator",
            storage_password=random_text(24),
            delivery_token_secret=random_text(20),
            console_username="demo",
            console_password=random_text(24),
        )
    for handler in list(_ensure_handlers):
        handler(account)
    return account


_account: Account | None = None


def current_account() -> Account:
    global _account
    if _account is None:  # two threads may both read it: the same row, so no harm
        _account = Account.objects.first() or ensure_account()
    return _account
