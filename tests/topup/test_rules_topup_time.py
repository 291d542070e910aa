"""requesttime is written YYYY-MM-DD HH:mm:ss on the Asia/Shanghai clock."""

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from topup.rules import format_requesttime, to_shanghai


def test_it_writes_utc_moments_in_shanghai_time() -> None:
    moment = datetime(2025, 3, 1, 16, 30, 5, 999_999, tzinfo=UTC)
    assert format_requesttime(moment) == "2025-03-02 00:30:05"


def test_it_converts_from_any_zone() -> None:
    new_york = datetime(2025, 7, 4, 9, 0, 0, tzinfo=timezone(timedelta(hours=-4)))
    assert format_requesttime(new_york) == "2025-07-04 21:00:00"


@pytest.mark.parametrize("month", [1, 4, 7, 10])
def test_it_agrees_with_the_tz_database_across_the_year(month: int) -> None:
    moment = datetime(2026, month, 15, 12, 0, tzinfo=UTC)
    expected = moment.astimezone(ZoneInfo("Asia/Shanghai")).strftime("%Y-%m-%d %H:%M:%S")
    assert format_requesttime(moment) == expected


def test_it_refuses_a_naive_datetime() -> None:
    with pytest.raises(ValueError, match="naive"):
        format_requesttime(datetime(2025, 3, 1, 16, 30, 5))


def test_it_keeps_the_instant_when_moving_to_shanghai() -> None:
    moment = datetime(2025, 3, 1, 16, 30, 5, tzinfo=UTC)
    assert to_shanghai(moment) == moment
    assert to_shanghai(moment).utcoffset() == timedelta(hours=8)
