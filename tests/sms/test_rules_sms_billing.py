"""Billing of one message: rendered content + signature + its two brackets (DECISIONS, SMS)."""

import pickle

import pytest

from sms.rules import (
    MESSAGE_TOO_LONG,
    MessageTooLongError,
    billed_length,
    billing_units,
    preview_message,
)

SIGN = "落子時"  # 3 characters, so a message of billed length N has N - 5 content characters


def content_for(length: int) -> str:
    """Content that makes a message of exactly `length` billed characters with SIGN."""
    return "好" * (length - len(SIGN) - 2)


def units_for(length: int) -> int | None:
    return preview_message(content_for(length), SIGN, "bottom").units


def test_it_counts_content_signature_and_both_brackets():
    assert billed_length("hello，hello", "落子時") == 11 + 3 + 2


def test_it_counts_every_character_as_one_whatever_the_script():
    assert billed_length("abc", "abc") == billed_length("中文字", "签名字")


def test_it_bills_70_characters_as_one_unit():
    assert billing_units(70) == 1
    assert units_for(70) == 1


def test_it_bills_71_characters_as_two_units():
    assert billing_units(71) == 2
    assert units_for(71) == 2


def test_it_bills_134_characters_as_two_units():
    assert billing_units(134) == 2
    assert units_for(134) == 2


def test_it_bills_135_characters_as_three_units():
    assert billing_units(135) == 3
    assert units_for(135) == 3


def test_it_bills_350_characters_as_six_units():
    assert billing_units(350) == 6
    assert units_for(350) == 6


def test_it_refuses_351_characters():
    with pytest.raises(MessageTooLongError) as caught:
        billing_units(351)
    assert caught.value.length == 351
    assert "350" in str(caught.value)


def test_it_reports_351_characters_as_a_problem_in_a_preview():
    preview = preview_message(content_for(351), SIGN, "top")
    assert preview.units is None
    assert preview.billed_length == 351
    assert not preview.ok
    assert [problem.code for problem in preview.problems] == [MESSAGE_TOO_LONG]


def test_it_bills_a_single_character_as_one_unit():
    assert billing_units(1) == 1


@pytest.mark.parametrize("length", [0, -1])
def test_it_refuses_a_length_below_one(length):
    with pytest.raises(ValueError, match="at least one character"):
        billing_units(length)


def test_too_long_error_is_a_value_error_that_survives_pickling():
    error = pickle.loads(pickle.dumps(MessageTooLongError(400)))
    assert isinstance(error, MessageTooLongError) and isinstance(error, ValueError)
    assert error.length == 400


def test_it_bills_the_rendered_content_not_the_template():
    # "{$var1}" is 7 characters of template but the value is 20 characters.
    preview = preview_message("码{$var1}", SIGN, "bottom", ["1" * 20])
    assert preview.billed_length == 1 + 20 + len(SIGN) + 2
