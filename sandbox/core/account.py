"""The demo account: created once per data directory with fresh random credentials."""

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


def current_account() -> Account:
    account = Account.objects.first()
    return account if account is not None else ensure_account()
