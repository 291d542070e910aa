"""The encrypted `mobile` of chargeOrder: AES-128-CBC/PKCS#7 with key = current token and
IV = appkey, base64; anything else is 533, a decrypted non-number 505."""

import base64

import pytest

from tests.sandbox.test_topup_support import (
    CMCC_NUMBER,
    TopupClient,
    encrypt_mobile,
    new_custno,
    sha1,
)


@pytest.fixture
def topup(sandbox):
    client = TopupClient(sandbox)
    client.refresh_token()
    return client


def charge_encrypted(topup, encrypted, prodcode="CMCC_10"):
    custno = new_custno()
    text = f"appkey{topup.appkey}custno{custno}mobile{encrypted}prodcode{prodcode}" \
           f"token{topup.token}"
    return topup.post("/chargeOrder", {"appkey": topup.appkey, "mobile": encrypted,
                                       "prodcode": prodcode, "custno": custno,
                                       "sign": sha1(text)})


def test_it_decrypts_the_number_with_the_token_and_appkey(topup):
    answer = charge_encrypted(topup, encrypt_mobile(CMCC_NUMBER, topup.token, topup.appkey))
    assert answer["code"] == "200"
    assert topup.order(answer["custno"])["mobile"] == CMCC_NUMBER


def test_it_accepts_a_number_written_with_the_country_code(topup):
    answer = charge_encrypted(topup, encrypt_mobile("+8613800138000", topup.token, topup.appkey))
    assert answer["code"] == "200"
    assert topup.order(answer["custno"])["mobile"] == "13800138000"


def test_a_number_encrypted_with_the_previous_token_gets_533(topup):
    old = topup.token
    topup.refresh_token()
    answer = charge_encrypted(topup, encrypt_mobile(CMCC_NUMBER, old, topup.appkey))
    assert answer["code"] == "533"
    assert "mobile" in answer["info"]


def test_a_number_encrypted_with_the_key_and_iv_swapped_gets_533(topup):
    answer = charge_encrypted(topup, encrypt_mobile(CMCC_NUMBER, topup.appkey, topup.token))
    assert answer["code"] == "533"


def test_a_plain_number_gets_533(topup):
    assert charge_encrypted(topup, CMCC_NUMBER)["code"] == "533"


def test_text_that_is_not_base64_gets_533(topup):
    assert charge_encrypted(topup, "not base64!")["code"] == "533"


def test_ciphertext_that_is_not_whole_blocks_gets_533(topup):
    assert charge_encrypted(topup, base64.b64encode(b"0123456789").decode())["code"] == "533"


def test_a_decrypted_text_that_is_not_a_number_gets_505(topup):
    answer = charge_encrypted(topup, encrypt_mobile("call me", topup.token, topup.appkey))
    assert answer["code"] == "505"


def test_a_refused_mobile_creates_no_order(topup):
    charge_encrypted(topup, "not base64!")
    assert topup.orders() == []
