"""Retry-After as RFC 9110 gives it: whole seconds or an HTTP date."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from providerkit.retry_after import MAX_WAIT_S, retry_after_seconds

NOW = datetime(2026, 11, 26, 12, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize(("value", "seconds"), [
    ("3", 3.0), (" 0 ", 0.0), ("Thu, 26 Nov 2026 12:00:30 GMT", 30.0),
    ("Thu, 26 Nov 2026 11:59:00 GMT", 0.0), ("999999", MAX_WAIT_S),
    (None, None), ("", None), ("soon", None), ("-5", None), ("1.5", None),
])
def test_retry_after_is_read_as_seconds_or_a_date(value: str | None,
                                                  seconds: float | None) -> None:
    assert retry_after_seconds(value, now=NOW) == seconds
