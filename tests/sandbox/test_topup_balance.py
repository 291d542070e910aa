"""getMyBalance and the money: prices frozen at charge, deducted on success, released on
failure; availBalance = balance - freeze, in yuan with two decimals."""

from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest
import requests

from tests.sandbox.test_topup_support import (
    CMCC_NUMBER,
    CTCC_NUMBER,
    CUCC_NUMBER,
    TopupClient,
    sha1,
)


@pytest.fixture
def topup(sandbox):
    client = TopupClient(sandbox)
    client.refresh_token()
    client.settings(progress_delay_s=60)
    return client


def exact_balance(topup):
    """The answer with amounts read as decimals, as a money-handling client would."""
    response = requests.post(f"{topup.url}/getMyBalance", timeout=10, json={
        "appkey": topup.appkey, "sign": sha1(f"appkey{topup.appkey}TOKEN{topup.token}")})
    return response.json(parse_float=Decimal)


def amounts(topup):
    answer = exact_balance(topup)
    return answer["balance"], answer["freeze"], answer["availBalance"]


def test_a_fresh_account_holds_1000_yuan(topup):
    assert exact_balance(topup) == {"code": "200", "balance": Decimal("1000.00"),
                                    "freeze": Decimal("0.00"),
                                    "availBalance": Decimal("1000.00")}


def test_amounts_are_written_with_two_decimals(topup):
    text = requests.post(f"{topup.url}/getMyBalance", timeout=10, json={
        "appkey": topup.appkey,
        "sign": sha1(f"appkey{topup.appkey}TOKEN{topup.token}")}).text
    assert '"balance": 1000.00' in text
    assert '"freeze": 0.00' in text
    assert '"availBalance": 1000.00' in text


def test_a_charge_freezes_the_price(topup):
    topup.charge(prodcode="CMCC_10")
    assert amounts(topup) == (Decimal("1000.00"), Decimal("2.85"), Decimal("997.15"))


def test_a_success_deducts_the_frozen_price(topup, sandbox):
    topup.charge(prodcode="CMCC_10")
    sandbox.advance(60)
    assert amounts(topup) == (Decimal("997.15"), Decimal("0.00"), Decimal("997.15"))


def test_a_failure_releases_the_frozen_price(topup, sandbox):
    topup.settings(failure_rate=1)
    topup.charge(prodcode="CMCC_10")
    sandbox.advance(60)
    assert amounts(topup) == (Decimal("1000.00"), Decimal("0.00"), Decimal("1000.00"))


def test_sums_of_many_prices_are_exact(topup, sandbox):
    for _ in range(3):
        topup.charge(CMCC_NUMBER, "CMCC_100")  # 9.50
        topup.charge(CUCC_NUMBER, "CUCC_50")  # 5.70
        topup.charge(CTCC_NUMBER, "CTCC_10")  # 1.90
    assert amounts(topup) == (Decimal("1000.00"), Decimal("51.30"), Decimal("948.70"))
    sandbox.advance(60)
    assert amounts(topup) == (Decimal("948.70"), Decimal("0.00"), Decimal("948.70"))


def test_frozen_money_cannot_be_spent_twice(topup):
    topup.settings(balance=5.70)
    assert topup.charge(CUCC_NUMBER, "CUCC_20")["code"] == "200"  # 2.85
    assert topup.charge(CUCC_NUMBER, "CUCC_20")["code"] == "200"  # 2.85: nothing left
    assert topup.charge(CTCC_NUMBER, "CTCC_10")["code"] == "503"
    assert amounts(topup) == (Decimal("5.70"), Decimal("5.70"), Decimal("0.00"))


def test_parallel_charges_never_spend_more_than_the_balance(topup):
    topup.settings(balance=14.25)  # five CMCC_10 at 2.85
    bodies = [topup.charge_body() for _ in range(12)]
    with ThreadPoolExecutor(12) as pool:
        codes = list(pool.map(lambda body: topup.post("/chargeOrder", body)["code"], bodies))
    assert sorted(codes) == ["200"] * 5 + ["503"] * 7
    assert amounts(topup) == (Decimal("14.25"), Decimal("14.25"), Decimal("0.00"))


def test_parallel_charges_with_one_custno_create_one_order(topup):
    body = topup.charge_body(custno="P1")
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(lambda _: topup.post("/chargeOrder", body)["code"], range(8)))
    assert sorted(codes) == ["200"] + ["512"] * 7
    assert amounts(topup)[1] == Decimal("2.85")


def test_released_money_can_be_spent_again(topup, sandbox):
    topup.settings(balance=2.85, failure_rate=1)
    topup.charge(prodcode="CMCC_10")
    assert topup.charge(prodcode="CMCC_10")["code"] == "503"
    sandbox.advance(60)
    assert topup.charge(prodcode="CMCC_10")["code"] == "200"


def test_the_balance_set_through_control_is_answered(topup):
    topup.settings(balance=12.34)
    assert amounts(topup) == (Decimal("12.34"), Decimal("0.00"), Decimal("12.34"))


def test_a_balance_query_needs_appkey_and_sign(topup):
    assert topup.post("/getMyBalance", {"sign": "x"})["code"] == "507"
    answer = topup.post("/getMyBalance", {"appkey": topup.appkey})
    assert answer == {"code": "507", "info": "sign: is required"}
