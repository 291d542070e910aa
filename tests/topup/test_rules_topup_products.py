"""Product codes (carrier + megabytes) and the optional prodtime / prodstandard values."""

import pytest

from topup.rules import (
    Carrier,
    InvalidInput,
    ProdStandard,
    ProdTime,
    Product,
    parse_prodstandard,
    parse_prodtime,
    parse_product_code,
    validate_prodcode,
)


@pytest.mark.parametrize(
    ("code", "carrier", "megabytes"),
    [
        ("CMCC_10", Carrier.CMCC, 10),
        ("CUCC_50", Carrier.CUCC, 50),
        ("CTCC_30", Carrier.CTCC, 30),
        ("CMCC_1024", Carrier.CMCC, 1024),
        ("CMCC_9999999", Carrier.CMCC, 9_999_999),
    ],
)
def test_it_reads_carrier_and_megabytes(code: str, carrier: Carrier, megabytes: int) -> None:
    product = parse_product_code(code)
    assert product == Product(carrier=carrier, megabytes=megabytes)
    assert product.code == code


@pytest.mark.parametrize(
    "code",
    ["CMCC10", "cmcc_10", "CMCC_", "CMCC_0", "CMCC_010", "CMCC_10MB", "CMCC_12345678", "CMCC_１０"],
)
def test_it_rejects_codes_not_shaped_carrier_megabytes(code: str) -> None:
    with pytest.raises(InvalidInput, match="is not CARRIER_MEGABYTES") as caught:
        parse_product_code(code)
    assert caught.value.field == "prodcode"


def test_it_rejects_an_unknown_carrier_by_name() -> None:
    with pytest.raises(InvalidInput, match="names carrier 'CBNC'; expected CMCC, CUCC or CTCC"):
        parse_product_code("CBNC_10")


def test_it_rejects_an_empty_or_non_string_code() -> None:
    with pytest.raises(InvalidInput, match="prodcode: is empty"):
        parse_product_code("")
    with pytest.raises(InvalidInput, match="must be a string"):
        parse_product_code(None)  # type: ignore[arg-type]


def test_the_client_check_accepts_codes_outside_our_own_shape() -> None:
    # The provider's catalogue is unpublished: the client must not refuse its codes.
    assert validate_prodcode("LT-FLOW-1G") == "LT-FLOW-1G"


@pytest.mark.parametrize("code", ["", " CMCC_10", "CMCC_10\n"])
def test_the_client_check_rejects_empty_or_padded_codes(code: str) -> None:
    with pytest.raises(InvalidInput, match="empty or has surrounding whitespace"):
        validate_prodcode(code)


def test_it_reads_prodtime_and_prodstandard_values() -> None:
    assert parse_prodtime(0) is ProdTime.OFF_PEAK
    assert parse_prodtime(1) is ProdTime.ALL_TIME
    assert [parse_prodstandard(value) for value in (1, 3, 7)] == [
        ProdStandard.G2,
        ProdStandard.G2_G3,
        ProdStandard.ALL_NETWORKS,
    ]


@pytest.mark.parametrize("value", [2, -1, True, "1", 1.0, None])
def test_it_rejects_bad_prodtime(value: object) -> None:
    with pytest.raises(InvalidInput, match="prodtime"):
        parse_prodtime(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [0, 2, 8, False, "7"])
def test_it_rejects_bad_prodstandard(value: object) -> None:
    with pytest.raises(InvalidInput, match="prodstandard"):
        parse_prodstandard(value)  # type: ignore[arg-type]
