"""The top-up control API: settings (GET/POST, 400 naming the field), the order listing, and
what a reset clears."""

import pytest

from tests.sandbox.test_topup_support import TopupClient


@pytest.fixture
def topup(sandbox):
    client = TopupClient(sandbox)
    client.refresh_token()
    return client


def test_a_fresh_account_has_the_default_settings(sandbox):
    assert sandbox.control("GET", "/topup/settings").json() == {
        "callback_url": "", "balance": 1000.0, "freeze": 0.0, "availBalance": 1000.0,
        "failure_rate": 0.0, "progress_delay_s": 5.0, "whitelist": ["127.0.0.1", "::1"]}


def test_posting_settings_changes_only_the_fields_given(topup):
    answer = topup.settings(callback_url="http://127.0.0.1:9/cb", failure_rate=0.25)
    assert answer["callback_url"] == "http://127.0.0.1:9/cb"
    assert answer["failure_rate"] == 0.25
    assert answer["progress_delay_s"] == 5.0
    answer = topup.settings(progress_delay_s=12.5, whitelist=["127.0.0.1"])
    assert answer["callback_url"] == "http://127.0.0.1:9/cb"
    assert (answer["progress_delay_s"], answer["whitelist"]) == (12.5, ["127.0.0.1"])


def test_an_empty_callback_url_turns_callbacks_off(topup):
    topup.settings(callback_url="http://127.0.0.1:9/cb")
    assert topup.settings(callback_url="")["callback_url"] == ""


def test_the_settings_show_the_frozen_part(topup):
    topup.charge(prodcode="CMCC_30")
    answer = topup.settings(balance=100)
    assert (answer["balance"], answer["freeze"], answer["availBalance"]) == (100, 4.75, 95.25)


@pytest.mark.parametrize(("body", "field"), [
    ({"failure_rate": 1.5}, "failure_rate"),
    ({"failure_rate": "0.5"}, "failure_rate"),
    ({"balance": -1}, "balance"),
    ({"balance": 1.005}, "balance"),
    ({"balance": "100"}, "balance"),
    ({"progress_delay_s": -1}, "progress_delay_s"),
    ({"progress_delay_s": True}, "progress_delay_s"),
    ({"callback_url": "ftp://example.com/cb"}, "callback_url"),
    ({"callback_url": "not a url"}, "callback_url"),
    ({"callback_url": 5}, "callback_url"),
    ({"whitelist": "127.0.0.1"}, "whitelist"),
    ({"whitelist": ["127.0.0.1", "localhost"]}, "whitelist"),
    ({"whitelist": [1]}, "whitelist"),
    ({"colour": "red"}, "colour"),
])
def test_a_bad_setting_is_refused_naming_the_field(sandbox, body, field):
    response = sandbox.control("POST", "/topup/settings", body)
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert sandbox.control("GET", "/topup/settings").json()["failure_rate"] == 0.0


def test_a_body_that_is_not_json_is_refused(sandbox):
    response = sandbox.control("POST", "/topup/settings", "nonsense")
    assert response.status_code == 400
    assert response.json()["field"] == "body"


def test_a_balance_below_the_frozen_part_is_refused_and_changes_nothing(topup, sandbox):
    topup.charge(prodcode="CMCC_100")  # 9.50 frozen
    response = sandbox.control("POST", "/topup/settings",
                               {"balance": 9.49, "callback_url": "http://127.0.0.1:9/cb"})
    assert response.status_code == 400
    assert response.json()["field"] == "balance"
    settings = sandbox.control("GET", "/topup/settings").json()
    assert (settings["balance"], settings["callback_url"]) == (1000.0, "")
    assert topup.settings(balance=9.50)["availBalance"] == 0


def test_the_order_listing_shows_each_order_and_its_state(topup):
    placed = topup.charge(prodcode="CMCC_30", custno="L1")
    [order] = topup.orders()
    assert order["custno"] == "L1"
    assert order["orderno"] == placed["orderno"]
    assert order["price"] == 4.75
    assert (order["code"], order["charge_code"], order["planned_code"]) == ("201", "200", "200")
    assert order["carrier"] == "CMCC"
    assert order["callbacks"] == []


def test_the_order_listing_can_be_filtered_by_custno(topup):
    topup.charge(custno="L1")
    topup.charge(custno="L2")
    assert [order["custno"] for order in topup.orders()] == ["L1", "L2"]
    assert topup.order("L2")["custno"] == "L2"


def test_reset_clears_orders_settings_and_balance(topup, sandbox):
    topup.settings(failure_rate=1, balance=10)
    topup.charge()
    sandbox.reset()
    settings = sandbox.control("GET", "/topup/settings").json()
    assert (settings["failure_rate"], settings["balance"], settings["freeze"]) == (0, 1000, 0)
    assert topup.orders() == []
