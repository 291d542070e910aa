"""Answer codes: what chargeOrder, seekOrder and callback codes say, and what to do about them."""

from enum import StrEnum

import pytest

from topup.rules import (
    ChargeOutcome,
    OrderOutcome,
    Remedy,
    classify_callback_code,
    classify_charge_code,
    classify_seek_code,
    remedy_for,
)


def test_charge_code_200_means_created() -> None:
    assert classify_charge_code("200") is ChargeOutcome.CREATED


@pytest.mark.parametrize("code", ["410", "511"])
def test_charge_codes_410_and_511_must_be_confirmed_by_a_query(code: str) -> None:
    assert classify_charge_code(code) is ChargeOutcome.MUST_QUERY


@pytest.mark.parametrize(
    "code", ["201", "430", "502", "503", "505", "510", "512", "513", "527", "532", "999", ""]
)
def test_every_other_charge_code_means_no_order_was_created(code: str) -> None:
    assert classify_charge_code(code) is ChargeOutcome.FAILED


@pytest.mark.parametrize(
    ("code", "outcome"),
    [
        ("200", OrderOutcome.SUCCESS),
        ("430", OrderOutcome.FAILED),
        ("530", OrderOutcome.FAILED),
        ("516", OrderOutcome.NO_SUCH_ORDER),
        ("511", OrderOutcome.MANUAL_CONFIRMATION),
        ("201", OrderOutcome.IN_PROGRESS),
        ("410", OrderOutcome.IN_PROGRESS),
        ("510", OrderOutcome.IN_PROGRESS),
        ("502", OrderOutcome.IN_PROGRESS),
        ("", OrderOutcome.IN_PROGRESS),
    ],
)
def test_it_reads_seek_order_codes_as_decisions_says(code: str, outcome: OrderOutcome) -> None:
    assert classify_seek_code(code) is outcome


@pytest.mark.parametrize(
    ("code", "outcome"),
    [
        ("200", OrderOutcome.SUCCESS),
        ("430", OrderOutcome.FAILED),
        ("530", OrderOutcome.FAILED),
        ("511", OrderOutcome.MANUAL_CONFIRMATION),
        ("516", OrderOutcome.IN_PROGRESS),
        ("201", OrderOutcome.IN_PROGRESS),
        ("777", OrderOutcome.IN_PROGRESS),
    ],
)
def test_it_reads_callback_codes_with_516_left_to_queries(code: str, outcome: OrderOutcome) -> None:
    assert classify_callback_code(code) is outcome


def test_only_success_and_failure_are_final() -> None:
    assert {outcome for outcome in OrderOutcome if outcome.is_final} == {
        OrderOutcome.SUCCESS,
        OrderOutcome.FAILED,
    }


@pytest.mark.parametrize("code", ["502", "508", "527", "531"])
def test_token_and_sign_codes_ask_for_a_token_refresh(code: str) -> None:
    assert remedy_for(code) is Remedy.REFRESH_TOKEN


def test_code_510_asks_to_back_off() -> None:
    assert remedy_for("510") is Remedy.BACK_OFF


@pytest.mark.parametrize("code", ["200", "201", "410", "430", "511", "514", "516", "519"])
def test_other_codes_ask_for_nothing_special(code: str) -> None:
    assert remedy_for(code) is Remedy.NONE


@pytest.mark.parametrize(
    "classify", [classify_charge_code, classify_seek_code, classify_callback_code, remedy_for]
)
def test_it_refuses_integer_codes_instead_of_reading_them_as_other(classify: object) -> None:
    with pytest.raises(TypeError, match="code must be a str"):
        classify(200)  # type: ignore[operator]


@pytest.mark.parametrize("enum", [ChargeOutcome, OrderOutcome, Remedy])
def test_every_outcome_member_has_its_own_docstring(enum: type[StrEnum]) -> None:
    docs = [member.__doc__ for member in enum]
    assert all(doc and doc != enum.__doc__ for doc in docs)
    assert len(set(docs)) == len(docs)


def test_outcomes_are_plain_strings_for_storage() -> None:
    # mypy takes the members' values for their (value, docstring) definitions.
    assert OrderOutcome("manual_confirmation") is OrderOutcome.MANUAL_CONFIRMATION  # type: ignore[call-arg]
    assert ChargeOutcome.MUST_QUERY == "must_query"  # type: ignore[comparison-overlap]
