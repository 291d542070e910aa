"""Injected faults on chargeOrder: an answer lost after the order was made leaves the order
created, which is why a client must query before it retries."""

import pytest
import requests

from tests.sandbox.test_topup_support import TopupClient


@pytest.fixture
def topup(sandbox):
    client = TopupClient(sandbox)
    client.refresh_token()
    return client


def test_a_fault_after_chargeorder_leaves_the_order_created(topup, sandbox):
    sandbox.add_fault(service="topup", path="^/chargeOrder", action="status", status=502,
                      when="after", times=1)
    body = topup.charge_body(custno="F1")
    response = requests.post(f"{topup.url}/chargeOrder", json=body, timeout=10)
    assert response.status_code == 502
    assert topup.seek("F1")["code"] == "201"
    assert topup.balance()["freeze"] == 2.85
    assert topup.post("/chargeOrder", body)["code"] == "512"


def test_a_dropped_connection_after_chargeorder_leaves_the_order_created(topup, sandbox):
    sandbox.add_fault(service="topup", path="^/chargeOrder", action="drop", when="after",
                      times=1)
    with pytest.raises(requests.ConnectionError):
        requests.post(f"{topup.url}/chargeOrder", json=topup.charge_body(custno="F1"),
                      timeout=10)
    assert topup.seek("F1")["code"] == "201"


def test_a_fault_before_chargeorder_creates_nothing(topup, sandbox):
    sandbox.add_fault(service="topup", path="^/chargeOrder", action="status", status=503,
                      times=1)
    response = requests.post(f"{topup.url}/chargeOrder", json=topup.charge_body(custno="F1"),
                             timeout=10)
    assert response.status_code == 503
    assert topup.seek("F1")["code"] == "516"
    assert topup.charge(custno="F1")["code"] == "200"
