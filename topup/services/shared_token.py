"""The one signing token shared by every process (web, workers, beat), as a `TokenProvider`.

The provider keeps only the newest token, so two processes refreshing on their own would keep
killing each other's token. Mechanism (the same on PostgreSQL and SQLite, with Redis or the
database cache):

- the token lives in row 1 of `TokenState`; a refresh runs inside a transaction that holds
  `select_for_update` on that row (a row lock on PostgreSQL; on SQLite, whose connections open
  IMMEDIATE transactions, the database write lock), so refreshes are serialized everywhere;
- under the lock, a process first re-reads the row: if another process already replaced the
  token it was about to refresh, it takes that one instead of calling refreshToken again;
- Django's cache (Redis or the database cache) holds a copy for fast reads; it is overwritten
  only under the lock, and otherwise only filled when empty, so it never goes back to an
  older token; while the cache is down every read goes to the row;
- the callback endpoint also keeps a copy in each process for a few seconds (`recent_snapshot`)
  and checks the shared store again before refusing a sign, so a refresh elsewhere never
  causes a refusal.

`cache.lock` was not used because the database cache has none; one mechanism on every back-end
is easier to trust than two. The previous token is kept for `TOPUP_CALLBACK_GRACE_S`: callbacks
are signed with the token current when they are sent, so one may cross a refresh.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from backoffice.operations import soft_cache
from topup.client import TopupError
from topup.conf import knob
from topup.models import TokenState

logger = logging.getLogger(__name__)

CACHE_KEY = "topup:token"
ROW_ID = 1


class TokenUnavailable(TopupError):
    """No token could be obtained; the request that needed it was not sent."""


@dataclass(frozen=True)
class TokenSnapshot:
    token: str
    expires_at: datetime | None
    previous_token: str
    previous_until: datetime | None

    def usable(self, now: datetime) -> bool:
        """Present and not due for replacement yet."""
        if not self.token or self.expires_at is None:
            return False
        margin = timedelta(seconds=knob("TOPUP_TOKEN_REFRESH_MARGIN_S"))
        return now < self.expires_at - margin

    def callback_tokens(self, now: datetime) -> tuple[str, ...]:
        """The tokens a callback may be signed with now: current, then previous in its grace."""
        tokens = [self.token] if self.token else []
        if self.previous_token and self.previous_until and now < self.previous_until:
            tokens.append(self.previous_token)
        return tuple(tokens)

    @classmethod
    def of(cls, state: TokenState) -> TokenSnapshot:
        return cls(state.token, state.expires_at, state.previous_token, state.previous_until)


def _cache_put(snapshot: TokenSnapshot, only_if_absent: bool = False) -> None:
    # Kept until the previous token's grace or the token's expiry ends, whichever is later.
    ends = [t for t in (snapshot.expires_at, snapshot.previous_until) if t is not None]
    timeout = max((max(ends) - timezone.now()).total_seconds(), 1) if ends else 60
    # A plain dict, not the dataclass: a cached value must survive a change of this module.
    # The cache is a copy: when it is down the row is the truth and is read each time.
    if only_if_absent:
        soft_cache.add(CACHE_KEY, asdict(snapshot), timeout)
    else:
        soft_cache.write(CACHE_KEY, asdict(snapshot), timeout)


def read_snapshot() -> TokenSnapshot | None:
    """The shared token as stored, from the cache or the database; takes no lock. A cache that
    is down reads as a miss: the row answers (the callback check must not fail with Redis)."""
    cached = soft_cache.read(CACHE_KEY)
    if isinstance(cached, dict):
        try:
            return TokenSnapshot(**cached)
        except TypeError:
            pass  # written by another version: read the database instead
    snapshot = read_row()
    if snapshot is not None and snapshot.token:
        # add, not set: only fills a gap. A refresh writes with set under the row lock, so a
        # value read here before a refresh committed can never overwrite the newer token.
        _cache_put(snapshot, only_if_absent=True)
    return snapshot


def read_row() -> TokenSnapshot | None:
    """The shared token from its row, past the cache: the truth when a copy is in doubt (a
    refresh made while the cache was down could not overwrite the copy there)."""
    state = TokenState.objects.filter(pk=ROW_ID).first()
    return None if state is None else TokenSnapshot.of(state)


_recent: dict[str, object] = {}
RECENT_S = 5.0


def recent_snapshot() -> TokenSnapshot | None:
    """`read_snapshot()` remembered in this process for a few seconds: the callback hot path.

    Verifying against a copy up to RECENT_S old can only fail for a token newer than the copy,
    so a caller that sees a sign fail must check again with `read_snapshot()` before refusing
    (see topup.services.callbacks). The copy only ever holds tokens that were ours.
    """
    now = time.monotonic()
    # remember() alone writes _recent: `until` a float, `snapshot` a TokenSnapshot or None.
    if now < _recent.get("until", 0.0):  # type: ignore[operator]
        return _recent["snapshot"]  # type: ignore[return-value]
    return remember(read_snapshot())


def remember(snapshot: TokenSnapshot | None) -> TokenSnapshot | None:
    _recent.update(snapshot=snapshot, until=time.monotonic() + RECENT_S)
    return snapshot


def forget_recent() -> None:
    """Drop this process's copy (tests that rewrite the token row directly)."""
    _recent.clear()


class SharedTokenProvider:
    """`TokenProvider` for `TopupClient`, shared across processes through the database.

    `fetch` calls refreshToken (typically `client.refresh_token`); it runs while the row lock is
    held, so no second process refreshes at the same time.
    """

    def __init__(self, fetch: Callable[[], str]) -> None:
        self._fetch = fetch

    def current(self) -> str:
        snapshot = read_snapshot()
        if snapshot is not None and snapshot.usable(timezone.now()):
            return snapshot.token
        # Missing or due for replacement: replace it unless someone else just did.
        return self._replace(rejected=snapshot.token if snapshot else "", reason="expiring")

    def refresh(self, rejected: str) -> str:
        return self._replace(rejected=rejected, reason="refused by the provider")

    def _replace(self, rejected: str, reason: str) -> str:
        TokenState.objects.get_or_create(pk=ROW_ID)
        try:
            with transaction.atomic():
                state = TokenState.objects.select_for_update().get(pk=ROW_ID)
                now = timezone.now()
                held = TokenSnapshot.of(state)
                if held.token and held.token != rejected and held.usable(now):
                    # Another process replaced it while we waited for the lock.
                    _cache_put(held)
                    return held.token
                token = self._fetch()
                now = timezone.now()
                if state.token:
                    state.previous_token = state.token
                    state.previous_until = now + timedelta(
                        seconds=knob("TOPUP_CALLBACK_GRACE_S"))
                state.token = token
                state.obtained_at = now
                state.expires_at = now + timedelta(seconds=knob("TOPUP_TOKEN_LIFETIME_S"))
                state.refresh_count += 1
                state.save()
                _cache_put(TokenSnapshot.of(state))
        except TopupError as error:
            raise TokenUnavailable(f"refreshToken failed: {error}") from error
        logger.info("top-up token replaced (%s); refresh #%d", reason, state.refresh_count)
        return token
