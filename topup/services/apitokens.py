"""Merchant API tokens: created and revoked by staff, shown once, stored only as a hash.

A key is `mt_` followed by 40 URL-safe random characters (240 bits). With that much entropy a
single SHA-256 is enough to make a leaked table useless (no dictionary to try), and it keeps
the lookup one indexed query per request, unlike a slow password hash.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from backoffice.annotations import StaffUser
from backoffice.models import AuditOutcome
from backoffice.security.audit import audited, record
from topup.models import ApiScope, ApiToken

if TYPE_CHECKING:
    from rest_framework.authtoken.models import Token

KEY_PREFIX = "mt_"
SHOWN_PREFIX_LENGTH = 10  # "mt_" and 7 random characters


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class TokenInputError(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field, self.message = field, message


@audited("topup", "api_token.create",
         lambda *, user, name, scopes, days=None: (None, f"token {name!r} for "
                                                          f"{user.get_username()}: "
                                                          f"{', '.join(scopes)}"),
         result_target=lambda created: created[0])
def create_token(*, user: StaffUser, name: str, scopes: list[str],
                 days: int | None = None) -> tuple[ApiToken, str]:
    """Returns the token and its key, which is never available again."""
    name = (name or "").strip()
    if not name:
        raise TokenInputError("name", _("Give the token a name, e.g. the system that uses it."))
    allowed = set(ApiScope.values)
    if not scopes or not set(scopes) <= allowed:
        raise TokenInputError("scopes", _("Choose at least one scope."))
    days = settings.API_TOKEN_DAYS if days is None else days
    if not 1 <= days <= settings.API_TOKEN_MAX_DAYS:
        raise TokenInputError("days", _("The lifetime must be between 1 and %(max)d days.")
                              % {"max": settings.API_TOKEN_MAX_DAYS})
    key = KEY_PREFIX + secrets.token_urlsafe(30)
    token = ApiToken.objects.create(
        name=name[:100], prefix=key[:SHOWN_PREFIX_LENGTH], key_hash=hash_key(key),
        scopes=sorted(set(scopes)), user=user,
        expires_at=timezone.now() + timedelta(days=days))
    return token, key


@audited("topup", "api_token.revoke", lambda token, *, by: (token, f"token {token.name!r}"))
def revoke_token(token: ApiToken, *, by: StaffUser) -> None:
    """Revoked at once: the next request with the key is refused. Revoking twice is a no-op."""
    ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now(), revoked_by=by if getattr(by, "pk", None) else None)


class TokenRefused(Exception):
    """Why a key was refused: `reason` is a fixed code, `message` the reader's text."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(reason)
        self.reason, self.message = reason, message


def token_for_key(key: str, *, address: str | None) -> ApiToken:
    """The live token of `key`; TokenRefused (audited) when it is unknown, revoked or expired."""
    token = ApiToken.objects.select_related("user").filter(key_hash=hash_key(key)).first()
    refusal = None
    if token is None:
        refusal = TokenRefused("unknown_token", _("Unknown API token."))
    elif token.revoked_at is not None:
        refusal = TokenRefused("revoked_token", _("This API token was revoked."))
    elif token.expires_at <= timezone.now():
        refusal = TokenRefused("expired_token", _("This API token has expired."))
    elif not token.user.is_active:
        refusal = TokenRefused("inactive_user", _("The staff member of this token is inactive."))
    if refusal is not None:
        record("topup", "api_token.refused", target=token or key[:SHOWN_PREFIX_LENGTH],
               outcome=AuditOutcome.REFUSED, address=address,
               username=token.user.get_username() if token else "", summary=refusal.reason)
        raise refusal
    assert token is not None  # every path without a token set a refusal above
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    return token


def refuse_scope(token: ApiToken, scope: str, *, address: str | None) -> str:
    """Audits a request outside the token's scopes; returns the reader's text."""
    record("topup", "api_token.refused", target=token, outcome=AuditOutcome.REFUSED,
           address=address, user=token.user, summary=f"missing scope {scope}")
    return _("This API token does not have the scope %(scope)s.") % {"scope": scope}


def legacy_keys() -> list[Token]:
    """DRF `authtoken` keys from before hashed tokens: still accepted (unscoped) until an
    administrator deletes them in the admin. Listed without the key."""
    from rest_framework.authtoken.models import Token

    return list(Token.objects.select_related("user").order_by("created"))
