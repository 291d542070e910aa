"""The demo account: created once per data directory with fresh random credentials.

Its row never changes after creation (a reset keeps it), so each process reads it once:
every authenticated request needs it, some several times.
"""

from __future__ import annotations

import secrets
import string

from django.db import transaction

from sandbox.core.models import Account

ALPHANUMERIC = string.ascii_letters + string.digits


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
        )
    return account


_account: Account | None = None


def current_account() -> Account:
    global _account
    if _account is None:  # two threads may both read it: the same row, so no harm
        _account = Account.objects.first() or ensure_account()
    return _account
