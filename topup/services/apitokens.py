"""Merchant API tokens: created and revoked by staff, shown once, stored only as a hash.

A key is `mt_` followed by 40 URL-safe random characters (240 bits). With that much entropy a
single SHA-256 is enough to make a leaked table useless (no dictionary to try), and it keeps
the lookup one indexed query per request, unlike a slow password hash.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import NoReturn

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from backoffice.annotations import StaffUser
from backoffice.models import AuditOutcome
from backoffice.operations import soft_cache
from backoffice.security import tallies
from backoffice.security.audit import audited, record
from topup.models import ApiScope, ApiToken

KEY_PREFIX = "mt_"
SHOWN_PREFIX_LENGTH = 10  # "mt_" and 7 random characters
UNKNOWN_TOKEN_TALLY = "api_token_unknown"
TALLY_KEEP_DAYS = 30  # counts of refused requests per address and minute, for the admin


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


class TokenThrottled(TokenRefused):
    """Too many unknown keys from the client's address this minute: 429 until it ends."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("too_many_unknown_tokens", _(
            "Too many unknown API tokens from your address: try again in a minute."))
        self.retry_after = retry_after


def token_for_key(key: str, *, address: str | None) -> ApiToken:
    """The live token of `key`; TokenRefused when it is unknown (counted per address, see
    `refuse_unknown`), revoked, expired or its person inactive (each audited), TokenThrottled
    while the address is over its limit of unknown keys (even a good key waits then)."""
    if soft_cache.read(_blocked_key(address)) is not None:
        raise TokenThrottled(tallies.count(UNKNOWN_TOKEN_TALLY, address).seconds_left())
    token = ApiToken.objects.select_related("user").filter(key_hash=hash_key(key)).first()
    refusal = None
    if token is None:
        refuse_unknown(address, TokenRefused("unknown_token", _("Unknown API token.")))
    elif token.revoked_at is not None:
        refusal = TokenRefused("revoked_token", _("This API token was revoked."))
    elif token.expires_at <= timezone.now():
        refusal = TokenRefused("expired_token", _("This API token has expired."))
    elif not token.user.is_active:
        refusal = TokenRefused("inactive_user", _("The staff member of this token is inactive."))
    assert token is not None  # refuse_unknown raised
    if refusal is not None:
        record("topup", "api_token.refused", target=token, outcome=AuditOutcome.REFUSED,
               address=address, username=token.user.get_username(), summary=refusal.reason)
        raise refusal
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    return token


def refuse_unknown(address: str | None, refusal: TokenRefused) -> NoReturn:
    """Counts an unknown key (or one of the retired `Token` scheme) against the address and
    raises `refusal`, or TokenThrottled past API_UNKNOWN_TOKENS_PER_MINUTE.

    Not audited one entry each: a client trying keys would fill the audit log. The count per
    address and minute is kept in the database (backoffice.security.tallies) and reported to
    the audit log once the minute is over (`report_unknown_tokens`). Past the limit, the cache
    remembers the address until the minute ends, so its next requests are refused before any
    key is looked up; with the cache down, the count alone still refuses each unknown key.
    """
    tally = tallies.count(UNKNOWN_TOKEN_TALLY, address)
    if tally.count > settings.API_UNKNOWN_TOKENS_PER_MINUTE:
        soft_cache.write(_blocked_key(address), tally.count, tally.seconds_left())
        raise TokenThrottled(tally.seconds_left())
    raise refusal


def _blocked_key(address: str | None) -> str:
    return f"topup:api-token-blocked:{tallies.source_of(address)}"


def report_unknown_tokens() -> int:
    """One audit entry per address and finished minute with its count of unknown keys;
    returns how many entries were written. Counts older than TALLY_KEEP_DAYS are forgotten."""
    written = 0
    for tally in tallies.closed_minutes(UNKNOWN_TOKEN_TALLY):
        if not tallies.claim_report(tally):
            continue  # another worker reported it
        network = "/" in tally.address
        record("topup", "api_token.refused", target=tally.address,
               outcome=AuditOutcome.REFUSED,
               address=None if network or tally.address == "unknown" else tally.address,
               summary=f"unknown API tokens: {tally.count}, from {tally.address} in the minute "
                       f"from {tally.minute:%Y-%m-%d %H:%M} UTC")
        written += 1
    tallies.forget_before(timezone.now() - timedelta(days=TALLY_KEEP_DAYS))
    return written


def refuse_scope(token: ApiToken, scope: str, *, address: str | None) -> str:
    """Audits a request outside the token's scopes; returns the reader's text."""
    record("topup", "api_token.refused", target=token, outcome=AuditOutcome.REFUSED,
           address=address, user=token.user, summary=f"missing scope {scope}")
    return _("This API token does not have the scope %(scope)s.") % {"scope": scope}
