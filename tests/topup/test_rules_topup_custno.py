"""custno: generated unique and time-sortable; validated to 1-29 characters of [A-Za-z0-9_-]."""

import re
from datetime import UTC, datetime, timedelta

import pytest

from topup.rules import InvalidInput, new_custno, validate_custno

MOMENT = datetime(2025, 11, 21, 0, 47, 5, 123456, tzinfo=UTC)


def test_it_generates_a_valid_28_character_custno() -> None:
    custno = new_custno(MOMENT)
    assert re.fullmatch(r"[0-9a-f]{28}", custno)
    assert validate_custno(custno) == custno


def test_it_starts_with_the_shanghai_timestamp_to_the_microsecond() -> None:
    assert new_custno(MOMENT).startswith("20251121084705123456")


def test_it_uses_the_clock_when_no_moment_is_given() -> None:
    before = new_custno(datetime.now(UTC) - timedelta(seconds=1))
    assert validate_custno(new_custno()) > before


def test_it_sorts_by_creation_time_as_text() -> None:
    moments = [MOMENT + timedelta(microseconds=step) for step in (0, 1, 999_999, 10**7, 10**11)]
    numbers = [new_custno(moment) for moment in moments]
    assert numbers == sorted(numbers)
    assert len(set(numbers)) == len(numbers)


def test_it_keeps_numbers_made_in_the_same_microsecond_apart() -> None:
    numbers = {new_custno(MOMENT) for _ in range(5000)}
    assert len(numbers) == 5000


def test_it_refuses_a_naive_moment() -> None:
    with pytest.raises(ValueError, match="naive"):
        new_custno(datetime(2025, 11, 21, 8, 47, 5))


@pytest.mark.parametrize("custno", ["a", "20151123114702", "A-z_09", "x" * 29])
def test_it_accepts_custnos_within_the_rules(custno: str) -> None:
    assert validate_custno(custno) == custno


def test_it_rejects_an_empty_custno() -> None:
    with pytest.raises(InvalidInput, match="custno: is empty") as caught:
        validate_custno("")
    assert caught.value.field == "custno"


@pytest.mark.parametrize("length", [30, 31, 64])
def test_it_rejects_a_custno_of_30_or_more_characters(length: int) -> None:
    with pytest.raises(InvalidInput, match=f"is {length} characters long; at most 29"):
        validate_custno("x" * length)


@pytest.mark.parametrize(
    ("custno", "named"),
    [
        ("order 1", "' '"),
        ("a.b/c", "'./'"),
        ("订单1", "'单订'"),
        ("x\n", "'\\\\n'"),
        ("１２", "'１２'"),
    ],
)
def test_it_rejects_and_names_bad_characters(custno: str, named: str) -> None:
    with pytest.raises(InvalidInput, match=f"outside A-Z a-z 0-9 _ -: {named}"):
        validate_custno(custno)


def test_it_rejects_a_custno_that_is_not_a_string() -> None:
    with pytest.raises(InvalidInput, match="must be a string, got int"):
        validate_custno(20151123114702)  # type: ignore[arg-type]
