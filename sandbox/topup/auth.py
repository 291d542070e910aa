"""Authentication of a signed request: appkey (519), a valid token (527), the sign (502)."""

from __future__ import annotations

from sandbox.core.account import current_account
from sandbox.topup import codes, tokens
from sandbox.topup.protocol import TopupError
from sandbox.topup.signing import Pairs, same_secret, sign


def authenticate(appkey: str, given_sign: str, pairs: Pairs, token_name: str,
                 now: float) -> str:
    """Check a request whose sign covers `pairs` followed by the token under `token_name`
    (`token` or `TOKEN`, as the interface spells it); returns the token, the AES key."""
    if not same_secret(appkey, current_account().topup_appkey):
        raise TopupError(codes.CREDENTIALS_WRONG, "appkey wrong")
    token = tokens.valid_token(now)
    if not same_secret(given_sign, sign([*pairs, (token_name, token)])):
        names = "".join(f"{name}<{name}>" for name, _ in pairs)
        raise TopupError(codes.SIGN_WRONG,
                         f"sign wrong: expected the lowercase hex SHA-1 of "
                         f"'{names}{token_name}<{token_name}>'")
    return token
