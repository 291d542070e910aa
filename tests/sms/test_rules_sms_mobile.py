"""Mobile numbers: normalisation to the 11-digit national form, and carrier lookup."""

import pickle

import pytest

from sms.mobiles import (
    UNKNOWN_CARRIER,
    InvalidMobileError,
    carrier_of,
    mobile_problem,
    normalize_mobile,
)
from sms.rules import ILLEGAL_MOBILE


@pytest.mark.parametrize(
    "raw",
    [
        "13800138000",
        "+8613800138000",
        "8613800138000",
        "+86 138 0013 8000",
        "86 13800138000",
        "138-0013-8000",
        " 13800138000\n",
        "138\u30000013\u30008000",  # ideographic spaces, as typed with a Chinese keyboard
    ],
)
def test_it_normalises_accepted_forms_to_11_digits(raw):
    assert normalize_mobile(raw) == "13800138000"


@pytest.mark.parametrize("second_digit", "3456789")
def test_it_accepts_every_second_digit_from_3_to_9(second_digit):
    number = f"1{second_digit}012345678"
    assert normalize_mobile(number) == number


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("1380013800", "length"),
        ("138001380001", "length"),
        ("+86", "length"),
        ("861380013800", "length"),  # 86 + 10 digits is a 12-digit number, not a prefix
        ("86012345678", "prefix"),  # 11 digits starting 86: a national number, not a prefix
        ("008613800138000", "length"),  # only +86 and 86 are accepted prefixes
        ("12345678901", "prefix"),
        ("10012345678", "prefix"),
        ("23800138000", "prefix"),
        ("+8612345678901", "prefix"),
        ("1380013800a", "characters"),
        ("１３８００１３８０００", "characters"),  # full-width digits
        ("+1 2025550123", "characters"),
        ("(+86)13800138000", "characters"),
        ("13800138000,13900139000", "characters"),
    ],
)
def test_it_refuses_a_bad_number_with_a_reason(raw, reason):
    with pytest.raises(InvalidMobileError) as caught:
        normalize_mobile(raw)
    problem = caught.value.problem
    assert caught.value.code == ILLEGAL_MOBILE
    assert (problem.field, problem.code) == ("mobile", ILLEGAL_MOBILE)
    assert problem.params == {"value": raw, "reason": reason}
    assert repr(raw) in problem.message


def test_an_invalid_number_error_is_a_value_error_that_survives_pickling():
    with pytest.raises(InvalidMobileError) as caught:
        normalize_mobile("123")
    assert isinstance(caught.value, ValueError)
    copy = pickle.loads(pickle.dumps(caught.value))
    assert copy.problem == caught.value.problem


def test_it_gives_the_problem_of_a_bad_number_or_none():
    assert mobile_problem("+86 139 0013 9000") is None
    problem = mobile_problem("12345")
    assert problem is not None
    assert problem.params["reason"] == "length"


@pytest.mark.parametrize(
    ("number", "code", "name_en", "name_zh"),
    [
        ("13800138000", "CMCC", "China Mobile", "中国移动"),
        ("15012345678", "CMCC", "China Mobile", "中国移动"),
        ("18612345678", "CUCC", "China Unicom", "中国联通"),
        ("13012345678", "CUCC", "China Unicom", "中国联通"),
        ("18912345678", "CTCC", "China Telecom", "中国电信"),
        ("19912345678", "CTCC", "China Telecom", "中国电信"),
    ],
)
def test_it_names_the_carrier_of_a_number_in_english_and_chinese(number, code, name_en, name_zh):
    carrier = carrier_of(number)
    assert (carrier.code, carrier.name_en, carrier.name_zh) == (code, name_en, name_zh)
    assert carrier.known


def test_it_looks_up_the_carrier_of_a_number_with_a_prefix():
    assert carrier_of("+86 186 1234 5678").code == "CUCC"


def test_it_names_a_fourth_carrier_without_a_top_up_code():
    carrier = carrier_of("19212345678")
    assert carrier.name_en == "China Broadnet"
    assert carrier.name_zh == "中国广电"
    assert carrier.code is None
    assert carrier.known


@pytest.mark.parametrize("number", ["14012345678", "14912345678"])
def test_it_reports_an_unknown_carrier_for_ranges_without_carrier_data(number):
    carrier = carrier_of(number)
    assert carrier == UNKNOWN_CARRIER
    assert not carrier.known


def test_it_refuses_to_look_up_the_carrier_of_a_bad_number():
    with pytest.raises(InvalidMobileError):
        carrier_of("12345678901")
