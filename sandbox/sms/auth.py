"""The SMS service's authentication: the raw account token in `Authorization`."""

from __future__ import annotations

import hmac

from django.http import HttpRequest

from sandbox.core.account import current_account
from sandbox.sms.errors import SmsError


def check_token(request: HttpRequest) -> None:
    """`Authorization: <token>`: the raw token, no scheme word (DECISIONS)."""
    given = request.headers.get("Authorization")
    if not given:
        raise SmsError("INVALID_CREDENTIALS", "the Authorization header is missing")
    expected = current_account().sms_token
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise SmsError("INVALID_CREDENTIALS", "the Authorization token is not this account's")
