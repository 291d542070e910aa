"""Mainland mobile numbers: normalised to 11 digits, carrier read from phonenumbers' data."""

import pytest

from topup.rules import Carrier, InvalidInput, detect_carrier, normalize_mobile


@pytest.mark.parametrize(
    "raw",
    [
        "13800138000",
        "+8613800138000",
        "8613800138000",
        "+86 138 0013 8000",
        "138-0013-8000",
        " 13800138000\t",
    ],
)
def test_it_normalises_to_eleven_digits(raw: str) -> None:
    assert normalize_mobile(raw) == "13800138000"


@pytest.mark.parametrize("raw", ["19912345678", "16612345678", "14512345678"])
def test_it_accepts_every_second_digit_from_3_to_9(raw: str) -> None:
    assert normalize_mobile(raw) == raw


@pytest.mark.parametrize(
    "raw",
    [
        "12800138000",  # second digit 2
        "1380013800",  # 10 digits
        "138001380001",  # 12 digits
        "23800138000",  # not starting with 1
        "1380013800a",
        "１３８００１３８０００",  # full-width digits
        "+85213800138000",  # Hong Kong prefix
        "008613800138000",
        "+86",
        "(138)00138000",
        "13800138000,13900139000",
    ],
)
def test_it_rejects_what_is_not_a_mainland_mobile_number(raw: str) -> None:
    with pytest.raises(InvalidInput, match="not a mainland China mobile number") as caught:
        normalize_mobile(raw)
    assert caught.value.field == "mobile"


@pytest.mark.parametrize("raw", ["", "  ", "--"])
def test_it_rejects_an_empty_number(raw: str) -> None:
    with pytest.raises(InvalidInput, match="mobile: .* it is empty"):
        normalize_mobile(raw)


def test_it_rejects_a_number_given_as_an_integer() -> None:
    with pytest.raises(InvalidInput, match="must be a string, got int"):
        normalize_mobile(13800138000)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("mobile", "carrier"),
    [
        ("13800138000", Carrier.CMCC),
        ("19812345678", Carrier.CMCC),
        ("18612345678", Carrier.CUCC),
        ("13012345678", Carrier.CUCC),
        ("18912345678", Carrier.CTCC),
        ("+86 133 1234 5678", Carrier.CTCC),
    ],
)
def test_it_detects_the_carrier_of_the_range(mobile: str, carrier: Carrier) -> None:
    assert detect_carrier(mobile) is carrier


@pytest.mark.parametrize("mobile", ["19212345678", "16212345678"])
def test_it_detects_no_carrier_outside_the_three(mobile: str) -> None:
    # 192 belongs to China Broadnet; 162 has no carrier in the data.
    assert detect_carrier(mobile) is None


def test_it_refuses_to_detect_the_carrier_of_a_bad_number() -> None:
    with pytest.raises(InvalidInput, match="mobile"):
        detect_carrier("12345")
