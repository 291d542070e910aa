"""Console Bearer tokens: 30 days on the sandbox clock, stored as their SHA-256 only.

A new token does not void the earlier ones (several processes may each hold one).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from django.http import HttpRequest

from sandbox.console.models import AccessToken
from sandbox.consoleapi.errors import BAD_LOGIN, BAD_TOKEN, ConsoleError, bad_field
from sandbox.core import clock
from sandbox.core.account import current_account

LIFETIME_S = 30 * 86400
CODE = re.compile(r"[A-Za-z0-9-]{20,32}")


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue(username: str, password: str, code: str, name: str, scope: str) -> tuple[str, int]:
    """(access_token, expired_at) for the account's console login."""
    if not username:
        raise bad_field("username", "is required")
    if not password:
        raise bad_field("password", "is required")
    if not CODE.fullmatch(code):
        raise bad_field("code", "must be 20-32 of A-Z a-z 0-9 -, new each time")
    account = current_account()
    same_user = hmac.compare_digest(username.encode(), account.console_username.encode())
    same_password = hmac.compare_digest(password.encode(), account.console_password.encode())
    if not (same_user and same_password):
        raise ConsoleError(BAD_LOGIN, "wrong username or password")
    token = secrets.token_urlsafe(30)
    now = clock.now()
    expires = int(now) + LIFETIME_S
    AccessToken.objects.create(digest=digest(token), name=name[:200], scope=scope[:200],
                               created_at=now, expires_at=expires)
    return token, expires


def require(request: HttpRequest) -> None:
    """Raise 10401 unless the request carries a current Bearer token."""
    scheme, _, token = request.headers.get("Authorization", "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ConsoleError(BAD_TOKEN, "Authorization: Bearer <access_token> is required")
    found = AccessToken.objects.filter(digest=digest(token.strip())).first()
    if found is None:
        raise ConsoleError(BAD_TOKEN, "unknown access token")
    if found.expires_at <= clock.now():
        raise ConsoleError(BAD_TOKEN, "the access token has expired")
