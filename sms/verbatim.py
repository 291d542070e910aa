"""Provider values we store verbatim (DECISIONS: an unknown message status is kept as sent),
fitted to their columns: cut, with a warning in the log, rather than refused by the database.

PostgreSQL refuses an over-long value in a plain UPDATE and silently cuts it in a CAST (as
bulk_update writes); SQLite keeps anything. Cutting here makes all three behave the same.
"""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)

PROVIDER_CODE_LENGTH = 100  # message and template statuses, per-number error codes


def fit(value: str, limit: int, what: str) -> str:
    """`value` if it fits in `limit` characters, else its first `limit`, logged."""
    if len(value) <= limit:
        return value
    logger.warning(
        "provider %s longer than %s characters, stored cut: %r", what, limit, value[:500]
    )
    return value[:limit]


def fit_code(value: str, what: str) -> str:
    return fit(value, PROVIDER_CODE_LENGTH, what)
