"""The top-up sign: names and values concatenated in a fixed order, SHA-1, lowercase hex.

The order and spelling of the names are the interface's (DECISIONS "Top-up"); callers pass the
pairs already in that order, so a client that sorts differently or writes `TOKEN` where `token`
belongs computes another digest and is refused.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

Pairs = Sequence[tuple[str, str]]


def signing_string(pairs: Pairs) -> str:
    return "".join(name + value for name, value in pairs)


def sign(pairs: Pairs) -> str:
    return hashlib.sha1(signing_string(pairs).encode("utf-8")).hexdigest()


def same_secret(given: str, expected: str) -> bool:
    """Constant-time equality, so a wrong sign or appkey leaks nothing through timing."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))
