"""chargeOrder's refusals: each code an input can cause, and the answer's shape."""

import pytest
import requests

from tests.sandbox.test_topup_support import (
    CMCC_NUMBER,
    CTCC_NUMBER,
    CUCC_NUMBER,
    TopupClient,
    new_custno,
)


@pytest.fixture
def topup(sandbox):
    client = TopupClient(sandbox)
    client.refresh_token()
    return client


@pytest.mark.parametrize(("mobile", "prodcode"), [
    (CMCC_NUMBER, "CMCC_10"), (CMCC_NUMBER, "CMCC_30"), (CMCC_NUMBER, "CMCC_100"),
    (CUCC_NUMBER, "CUCC_20"), (CUCC_NUMBER, "CUCC_50"),
    (CTCC_NUMBER, "CTCC_10"), (CTCC_NUMBER, "CTCC_30"),
    ("13490001234", "CTCC_10"),  # 1349 is a CTCC segment inside CMCC's 134
    ("17031234567", "CMCC_10"),  # virtual-operator segments ride on their carrier
    ("17091234567", "CUCC_20"),
    ("17001234567", "CTCC_10"),
])
def test_it_creates_an_order_for_a_product_of_the_numbers_carrier(topup, mobile, prodcode):
    answer = topup.charge(mobile, prodcode, "C1")
    assert answer == {"code": "200", "custno": "C1", "orderno": answer["orderno"],
                      "info": answer["info"]}
    assert answer["orderno"].isdigit()
    assert topup.order("C1")["prodcode"] == prodcode


def test_it_accepts_a_custno_of_29_characters(topup):
    assert topup.charge(custno="A" * 29)["code"] == "200"


def test_a_custno_of_30_characters_gets_532(topup):
    answer = topup.charge(custno="A" * 30)
    assert answer["code"] == "532"
    assert answer["custno"] == "A" * 30
    assert answer["orderno"] == ""


@pytest.mark.parametrize("custno", ["has space", "订单1", "a/b"])
def test_a_custno_with_other_characters_gets_507(topup, custno):
    answer = topup.charge(custno=custno)
    assert answer["code"] == "507"
    assert "custno" in answer["info"]


def test_a_reused_custno_gets_512(topup):
    topup.charge(custno="C1")
    answer = topup.charge(CTCC_NUMBER, "CTCC_10", custno="C1")
    assert answer["code"] == "512"
    assert len(topup.orders()) == 1


def test_a_custno_stays_used_after_its_order_failed(topup, sandbox):
    topup.settings(failure_rate=1, progress_delay_s=10)
    topup.charge(custno="C1")
    sandbox.advance(10)
    assert topup.seek("C1")["code"] == "530"
    assert topup.charge(custno="C1")["code"] == "512"


@pytest.mark.parametrize("field", ["appkey", "mobile", "prodcode", "custno", "sign"])
def test_a_missing_required_field_gets_507_naming_it(topup, field):
    body = topup.charge_body()
    del body[field]
    answer = topup.post("/chargeOrder", body)
    assert answer["code"] == "507"
    assert field in answer["info"]


def test_a_custno_that_is_a_number_gets_507(topup):
    body = topup.charge_body()
    body["custno"] = 123
    answer = topup.post("/chargeOrder", body)
    assert answer["code"] == "507"
    assert answer["custno"] == ""


@pytest.mark.parametrize(("field", "value"), [
    ("prodtime", "1"), ("prodtime", 2), ("prodtime", True), ("prodtime", 1.5),
    ("prodstandard", 5), ("prodstandard", "7"), ("prodstandard", 0),
])
def test_a_bad_prodtime_or_prodstandard_gets_507(topup, field, value):
    answer = topup.charge(**{field: value})
    assert answer["code"] == "507"
    assert field in answer["info"]


@pytest.mark.parametrize(("prodtime", "prodstandard"), [(0, 1), (1, 3), (1, 7)])
def test_it_keeps_the_prodtime_and_prodstandard_asked_for(topup, prodtime, prodstandard):
    answer = topup.charge(prodtime=prodtime, prodstandard=prodstandard)
    order = topup.order(answer["custno"])
    assert (order["prodtime"], order["prodstandard"]) == (prodtime, prodstandard)


def test_prodtime_and_prodstandard_default_to_all_time_all_networks(topup):
    order = topup.order(topup.charge()["custno"])
    assert (order["prodtime"], order["prodstandard"]) == (1, 7)


def test_an_unknown_product_gets_507(topup):
    answer = topup.charge(prodcode="CMCC_5")
    assert answer["code"] == "507"
    assert "prodcode" in answer["info"]


def test_a_product_of_another_carrier_gets_506(topup):
    answer = topup.charge(CMCC_NUMBER, "CUCC_20")
    assert answer["code"] == "506"
    assert topup.orders() == []


@pytest.mark.parametrize("mobile", ["1380013800", "138001380001", "23800138000",
                                    "12800138000", "13800138000,13900139000", "1380013800a"])
def test_a_malformed_number_gets_505(topup, mobile):
    assert topup.charge(mobile)["code"] == "505"


@pytest.mark.parametrize("mobile", ["19212345678", "14012345678", "16012345678"])
def test_a_number_in_no_carriers_segment_gets_517(topup, mobile):
    assert topup.charge(mobile)["code"] == "517"


def test_an_order_the_available_balance_cannot_cover_gets_503(topup):
    topup.settings(balance=2.84)
    answer = topup.charge(prodcode="CMCC_10")  # 2.85
    assert answer["code"] == "503"
    assert topup.orders() == []
    assert topup.charge(CTCC_NUMBER, "CTCC_10")["code"] == "200"  # 1.90


def test_a_body_that_is_not_json_gets_507(topup):
    response = requests.post(f"{topup.url}/chargeOrder", data="{nope",
                             headers={"Content-Type": "application/json"}, timeout=10)
    assert response.status_code == 200
    assert response.json()["code"] == "507"


def test_a_json_array_gets_507(topup):
    assert topup.post("/chargeOrder", [topup.charge_body()])["code"] == "507"


def test_a_form_encoded_request_gets_507(topup):
    response = requests.post(f"{topup.url}/chargeOrder", data=topup.charge_body(), timeout=10)
    answer = response.json()
    assert answer["code"] == "507"
    assert "Content-Type" in answer["info"]


def test_a_get_is_refused_with_405(topup):
    response = requests.get(f"{topup.url}/chargeOrder", timeout=10)
    assert response.status_code == 405
    assert response.json()["code"] == "507"


def test_an_unknown_path_gets_a_json_404(topup):
    response = requests.post(f"{topup.url}/chargeOrders", json={}, timeout=10)
    assert response.status_code == 404
    assert "chargeOrders" in response.json()["error"]


def test_every_code_is_a_string(topup):
    for answer in (topup.charge(), topup.charge(prodcode="NOPE"), topup.balance(),
                   topup.seek(new_custno())):
        assert isinstance(answer["code"], str)
