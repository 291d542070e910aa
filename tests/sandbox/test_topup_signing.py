"""Top-up signs: the names of each interface in their order and spelling, SHA-1 in lowercase
hex. Every signing string is written out by hand here."""

import pytest

from sandbox.topup.signing import signing_string
from tests.sandbox.test_topup_support import CMCC_NUMBER, TopupClient, encrypt_mobile, sha1


@pytest.fixture
def topup(sandbox):
    client = TopupClient(sandbox)
    client.refresh_token()
    return client


def test_the_emulator_builds_the_documented_charge_string():
    # The chargeOrder example of the provider's public docs (DECISIONS "Top-up").
    pairs = [("appkey", "3P83lWwkoV15yZVT"), ("custno", "20151123114702"),
             ("mobile", "8mBGFNfe1o/rzAx2Ost2IQ=="), ("prodcode", "CMCC_10"),
             ("token", "VqHAab3JYXBDkCoO")]
    assert signing_string(pairs) == (
        "appkey3P83lWwkoV15yZVTcustno20151123114702mobile8mBGFNfe1o/rzAx2Ost2IQ=="
        "prodcodeCMCC_10tokenVqHAab3JYXBDkCoO")


def balance_with(topup, text):
    return topup.post("/getMyBalance", {"appkey": topup.appkey, "sign": sha1(text)})


def charge_with(topup, custno, text, encrypted, **extra):
    return topup.post("/chargeOrder", {
        "appkey": topup.appkey, "mobile": encrypted, "prodcode": "CMCC_10", "custno": custno,
        "sign": sha1(text), **extra})


def test_it_accepts_a_balance_query_signed_with_appkey_and_TOKEN(topup):
    answer = balance_with(topup, f"appkey{topup.appkey}TOKEN{topup.token}")
    assert answer["code"] == "200"


def test_it_refuses_a_balance_query_signed_with_lowercase_token(topup):
    answer = balance_with(topup, f"appkey{topup.appkey}token{topup.token}")
    assert answer["code"] == "502"


def test_it_refuses_a_balance_query_with_the_token_first(topup):
    answer = balance_with(topup, f"TOKEN{topup.token}appkey{topup.appkey}")
    assert answer["code"] == "502"


def test_it_refuses_a_sign_written_in_uppercase_hex(topup):
    text = f"appkey{topup.appkey}TOKEN{topup.token}"
    answer = topup.post("/getMyBalance", {"appkey": topup.appkey, "sign": sha1(text).upper()})
    assert answer["code"] == "502"


def test_it_refuses_a_request_without_a_sign_with_507(topup):
    answer = topup.post("/getMyBalance", {"appkey": topup.appkey})
    assert answer["code"] == "507"
    assert "sign" in answer["info"]


def test_it_refuses_a_signed_request_with_a_wrong_appkey_with_519(topup):
    other = "0123456789abcdef"
    answer = topup.post("/getMyBalance", {"appkey": other,
                                          "sign": sha1(f"appkey{other}TOKEN{topup.token}")})
    assert answer["code"] == "519"


def test_it_accepts_a_charge_signed_with_lowercase_token(topup):
    encrypted = encrypt_mobile(CMCC_NUMBER, topup.token, topup.appkey)
    text = f"appkey{topup.appkey}custnoS1mobile{encrypted}prodcodeCMCC_10token{topup.token}"
    answer = charge_with(topup, "S1", text, encrypted)
    assert answer["code"] == "200"
    assert answer["custno"] == "S1"
    assert answer["orderno"]


def test_it_refuses_a_charge_signed_with_uppercase_TOKEN(topup):
    encrypted = encrypt_mobile(CMCC_NUMBER, topup.token, topup.appkey)
    text = f"appkey{topup.appkey}custnoS1mobile{encrypted}prodcodeCMCC_10TOKEN{topup.token}"
    answer = charge_with(topup, "S1", text, encrypted)
    assert answer["code"] == "502"
    assert answer["custno"] == "S1"
    assert answer["orderno"] == ""


def test_it_refuses_a_charge_whose_names_come_in_another_order(topup):
    encrypted = encrypt_mobile(CMCC_NUMBER, topup.token, topup.appkey)
    text = f"custnoS1appkey{topup.appkey}mobile{encrypted}prodcodeCMCC_10token{topup.token}"
    assert charge_with(topup, "S1", text, encrypted)["code"] == "502"


def test_it_refuses_a_charge_signed_over_the_plain_mobile(topup):
    encrypted = encrypt_mobile(CMCC_NUMBER, topup.token, topup.appkey)
    text = f"appkey{topup.appkey}custnoS1mobile{CMCC_NUMBER}prodcodeCMCC_10token{topup.token}"
    assert charge_with(topup, "S1", text, encrypted)["code"] == "502"


def test_it_refuses_a_charge_signed_with_the_previous_token(topup):
    old = topup.token
    new = topup.refresh_token()
    encrypted = encrypt_mobile(CMCC_NUMBER, new, topup.appkey)
    text = f"appkey{topup.appkey}custnoS1mobile{encrypted}prodcodeCMCC_10token{old}"
    assert charge_with(topup, "S1", text, encrypted)["code"] == "502"


def test_prodtime_and_prodstandard_stay_out_of_the_sign(topup):
    encrypted = encrypt_mobile(CMCC_NUMBER, topup.token, topup.appkey)
    text = f"appkey{topup.appkey}custnoS1mobile{encrypted}prodcodeCMCC_10token{topup.token}"
    answer = charge_with(topup, "S1", text, encrypted, prodtime=0, prodstandard=3)
    assert answer["code"] == "200"
    with_flags = f"appkey{topup.appkey}custnoS2mobile{encrypted}prodcodeCMCC_10prodstandard3" \
                 f"prodtime0token{topup.token}"
    assert charge_with(topup, "S2", with_flags, encrypted, prodtime=0,
                       prodstandard=3)["code"] == "502"


def test_a_seek_signs_requesttime_between_custno_and_TOKEN(topup):
    custno = topup.charge()["custno"]
    moment = "2030-01-01 00:00:00"
    text = f"appkey{topup.appkey}custno{custno}requesttime{moment}TOKEN{topup.token}"
    answer = topup.post("/seekOrder", {"appkey": topup.appkey, "custno": custno,
                                       "requesttime": moment, "sign": sha1(text)})
    assert answer["code"] == "516"  # authenticated: the order is just not in that window


def test_a_seek_signed_without_the_requesttime_it_sends_is_refused(topup):
    custno = topup.charge()["custno"]
    text = f"appkey{topup.appkey}custno{custno}TOKEN{topup.token}"
    answer = topup.post("/seekOrder", {"appkey": topup.appkey, "custno": custno,
                                       "requesttime": "2030-01-01 00:00:00",
                                       "sign": sha1(text)})
    assert answer["code"] == "502"


def test_a_seek_signed_with_lowercase_token_is_refused(topup):
    custno = topup.charge()["custno"]
    text = f"appkey{topup.appkey}custno{custno}token{topup.token}"
    answer = topup.post("/seekOrder", {"appkey": topup.appkey, "custno": custno,
                                       "sign": sha1(text)})
    assert answer["code"] == "502"
    assert answer["custno"] == custno


def test_a_refused_charge_creates_nothing_and_freezes_nothing(topup):
    encrypted = encrypt_mobile(CMCC_NUMBER, topup.token, topup.appkey)
    text = f"appkey{topup.appkey}custnoS1mobile{encrypted}prodcodeCMCC_10TOKEN{topup.token}"
    charge_with(topup, "S1", text, encrypted)
    assert topup.orders() == []
    assert topup.balance()["freeze"] == 0
