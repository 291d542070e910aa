"""The egress-IP whitelist: loopback is admitted by default; any other caller gets 514."""

import pytest

from tests.sandbox.test_topup_support import TopupClient, sha1


@pytest.fixture
def topup(sandbox):
    client = TopupClient(sandbox)
    client.refresh_token()
    return client


def test_loopback_is_admitted_by_default(topup):
    assert topup.balance()["code"] == "200"


@pytest.mark.parametrize("path", ["/refreshToken", "/chargeOrder", "/seekOrder",
                                  "/getMyBalance"])
def test_a_caller_off_the_whitelist_gets_514_on_every_interface(topup, path):
    topup.settings(whitelist=["10.1.2.3"])
    bodies = {
        "/refreshToken": {"appkey": topup.appkey, "appsecret": topup.appsecret},
        "/chargeOrder": topup.charge_body(),
        "/seekOrder": {"appkey": topup.appkey, "custno": "X1",
                       "sign": sha1(f"appkey{topup.appkey}custnoX1TOKEN{topup.token}")},
        "/getMyBalance": {"appkey": topup.appkey,
                          "sign": sha1(f"appkey{topup.appkey}TOKEN{topup.token}")},
    }
    answer = topup.post(path, bodies[path])
    assert answer["code"] == "514"
    assert "127.0.0.1" in answer["info"]


def test_a_refused_caller_creates_no_order(topup):
    topup.settings(whitelist=[])
    topup.charge()
    assert topup.orders() == []


def test_putting_the_caller_back_on_the_whitelist_admits_it(topup):
    topup.settings(whitelist=["10.1.2.3"])
    assert topup.balance()["code"] == "514"
    topup.settings(whitelist=["10.1.2.3", "127.0.0.1"])
    assert topup.balance()["code"] == "200"
