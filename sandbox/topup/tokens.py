"""The token lifecycle on the sandbox clock: valid 24 h, only the latest one counts."""

from __future__ import annotations

from django.db import transaction

from sandbox.core.account import current_account, random_text
from sandbox.topup import codes
from sandbox.topup.models import Token
from sandbox.topup.protocol import TopupError
from sandbox.topup.signing import same_secret

TOKEN_LIFETIME_S = 24 * 3600
TOKEN_LENGTH = 16  # DECISIONS: appkeys and tokens are 16 characters (it is also the AES key)


def latest() -> Token | None:
    """The most recently issued token, valid or expired; older ones are dead for good."""
    return Token.objects.order_by("-id").first()


def refresh(appkey: str, appsecret: str, now: float) -> Token:
    account = current_account()
    appkey_ok = same_secret(appkey, account.topup_appkey)
    appsecret_ok = same_secret(appsecret, account.topup_appsecret)
    if not (appkey_ok and appsecret_ok):
        raise TopupError(codes.CREDENTIALS_WRONG, "appkey or appsecret wrong")
    with transaction.atomic():
        previous = latest()
        value = random_text(TOKEN_LENGTH)
        while previous is not None and value == previous.value:
            value = random_text(TOKEN_LENGTH)  # a "new" token equal to the old one is not new
        return Token.objects.create(value=value, issued_at=now,
                                    expires_at=now + TOKEN_LIFETIME_S)


def valid_token(now: float) -> str:
    """The token a request must be signed with now; 527 when there is none valid."""
    token = latest()
    if token is None:
        raise TopupError(codes.TOKEN_INVALID, "no token issued; call refreshToken")
    if now >= token.expires_at:
        raise TopupError(codes.TOKEN_INVALID, "token expired; call refreshToken")
    return token.value
