"""Sign strings of every interface, checked against strings written out by hand from DECISIONS.

The expected signs are computed here with hashlib from literal strings, never by the code under
test, so a wrong order, name spelling or separator in `topup.signing` cannot hide.
"""

import hashlib

import pytest

from topup.signing import (
    balance_sign,
    callback_sign,
    charge_order_sign,
    seek_order_sign,
    sign,
    signing_string,
    verify_callback_sign,
)

APPKEY = "3P83lWwkoV15yZVT"
CUSTNO = "20151123114702"
TOKEN = "VqHAab3JYXBDkCoO"
PREVIOUS_TOKEN = "Zx81kQpL0mWn4RtY"

PUBLIC_EXAMPLE_STRING = (
    "appkey3P83lWwkoV15yZVTcustno20151123114702mobile8mBGFNfe1o/rzAx2Ost2IQ=="
    "prodcodeCMCC_10tokenVqHAab3JYXBDkCoO"
)
PUBLIC_EXAMPLE_SIGN = "86ee7d160f03b54f27c99fbfebaa276c8a1a3017"

SEEK_STRING = "appkey3P83lWwkoV15yZVTcustno20151123114702TOKENVqHAab3JYXBDkCoO"
SEEK_STRING_WITH_TIME = (
    "appkey3P83lWwkoV15yZVTcustno20151123114702requesttime2015-11-23 11:47:02TOKENVqHAab3JYXBDkCoO"
)
BALANCE_STRING = "appkey3P83lWwkoV15yZVTTOKENVqHAab3JYXBDkCoO"
CALLBACK_STRING = (
    "code200custno20151123114702info充值成功ordernoT20151123114702001tokenVqHAab3JYXBDkCoO"
)


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def callback_payload(**changes: object) -> dict[str, object]:
    payload: dict[str, object] = {
        "code": "200",
        "custno": CUSTNO,
        "info": "充值成功",
        "orderno": "T20151123114702001",
        "sign": sha1(CALLBACK_STRING),
    }
    payload.update(changes)
    return payload


def test_it_builds_the_charge_order_string_of_the_public_example() -> None:
    pairs = [
        ("appkey", APPKEY),
        ("custno", CUSTNO),
        ("mobile", "8mBGFNfe1o/rzAx2Ost2IQ=="),
        ("prodcode", "CMCC_10"),
        ("token", TOKEN),
    ]
    assert signing_string(pairs) == PUBLIC_EXAMPLE_STRING
    assert sign(pairs) == PUBLIC_EXAMPLE_SIGN


def test_it_signs_charge_order_like_the_public_example() -> None:
    signed = charge_order_sign(
        appkey=APPKEY,
        custno=CUSTNO,
        mobile="8mBGFNfe1o/rzAx2Ost2IQ==",
        prodcode="CMCC_10",
        token=TOKEN,
    )
    assert signed == PUBLIC_EXAMPLE_SIGN


def test_it_signs_seek_order_without_requesttime_using_uppercase_token() -> None:
    assert seek_order_sign(appkey=APPKEY, custno=CUSTNO, token=TOKEN) == sha1(SEEK_STRING)


def test_it_signs_seek_order_with_requesttime_between_custno_and_token() -> None:
    signed = seek_order_sign(
        appkey=APPKEY, custno=CUSTNO, requesttime="2015-11-23 11:47:02", token=TOKEN
    )
    assert signed == sha1(SEEK_STRING_WITH_TIME)


def test_it_signs_get_my_balance_with_uppercase_token() -> None:
    assert balance_sign(appkey=APPKEY, token=TOKEN) == sha1(BALANCE_STRING)


def test_it_signs_a_callback_over_utf8_info() -> None:
    signed = callback_sign(
        code="200", custno=CUSTNO, info="充值成功", orderno="T20151123114702001", token=TOKEN
    )
    assert signed == sha1(CALLBACK_STRING)


def test_signs_are_lowercase_hex_of_forty_characters() -> None:
    signed = balance_sign(appkey=APPKEY, token=TOKEN)
    assert len(signed) == 40
    assert signed == signed.lower()
    int(signed, 16)


def test_it_refuses_names_out_of_ascending_order_ignoring_case() -> None:
    with pytest.raises(ValueError, match="'custno' is not after 'token'"):
        signing_string([("token", TOKEN), ("custno", CUSTNO)])
    with pytest.raises(ValueError, match="not after"):
        signing_string([("appkey", APPKEY), ("APPKEY", APPKEY)])


def test_it_accepts_uppercase_token_after_lowercase_names() -> None:
    assert signing_string([("requesttime", "x"), ("TOKEN", "y")]) == "requesttimexTOKENy"


def test_it_refuses_non_string_values_instead_of_signing_their_repr() -> None:
    with pytest.raises(TypeError, match="'custno'"):
        signing_string([("appkey", APPKEY), ("custno", None)])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="'code'"):
        callback_sign(code=200, custno=CUSTNO, info="", orderno="1", token=TOKEN)  # type: ignore[arg-type]


def test_it_refuses_an_empty_name() -> None:
    with pytest.raises(ValueError, match="needs a name"):
        signing_string([("", "value")])


def test_it_verifies_a_callback_signed_with_the_current_token() -> None:
    assert verify_callback_sign(callback_payload(), [TOKEN, PREVIOUS_TOKEN])


def test_it_verifies_a_callback_signed_with_the_previous_token() -> None:
    assert verify_callback_sign(callback_payload(), [PREVIOUS_TOKEN, TOKEN])


def test_it_skips_a_missing_previous_token() -> None:
    assert verify_callback_sign(callback_payload(), [TOKEN, None])
    assert not verify_callback_sign(callback_payload(), [PREVIOUS_TOKEN, None, ""])


def test_it_rejects_a_callback_signed_with_another_token() -> None:
    assert not verify_callback_sign(callback_payload(), [PREVIOUS_TOKEN])
    assert not verify_callback_sign(callback_payload(), [])


@pytest.mark.parametrize(
    "changes",
    [
        {"code": "430"},
        {"custno": "20151123114703"},
        {"info": "充值失败"},
        {"orderno": "T20151123114702002"},
    ],
)
def test_it_rejects_a_callback_whose_signed_field_was_altered(changes: dict[str, str]) -> None:
    assert not verify_callback_sign(callback_payload(**changes), [TOKEN])


def test_it_rejects_uppercase_hex_sign() -> None:
    payload = callback_payload(sign=sha1(CALLBACK_STRING).upper())
    assert not verify_callback_sign(payload, [TOKEN])


@pytest.mark.parametrize(
    "changes",
    [
        {"sign": None},
        {"sign": 12345},
        {"sign": ""},
        {"sign": "签名不对"},
        {"code": 200},
        {"orderno": None},
    ],
)
def test_it_rejects_malformed_callbacks_without_raising(changes: dict[str, object]) -> None:
    assert not verify_callback_sign(callback_payload(**changes), [TOKEN])


def test_it_rejects_a_callback_missing_a_signed_field() -> None:
    payload = callback_payload()
    del payload["info"]
    assert not verify_callback_sign(payload, [TOKEN])
