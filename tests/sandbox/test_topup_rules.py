"""Per-number outcome rules for tests: forced outcomes, 410/511 answers to chargeOrder with the
order still created, manual confirmation, and callbacks that are missing, doubled or late."""

from decimal import Decimal

import pytest

from tests.sandbox.test_topup_support import CMCC_NUMBER, CTCC_NUMBER, TopupClient, receiving


@pytest.fixture
def topup(sandbox):
    client = TopupClient(sandbox)
    client.refresh_token()
    client.settings(progress_delay_s=30)
    return client


def test_a_number_ruled_to_fail_always_fails(topup, sandbox):
    topup.rule(mobile=CMCC_NUMBER, outcome="fail")
    first, second = topup.charge()["custno"], topup.charge()["custno"]
    other = topup.charge(CTCC_NUMBER, "CTCC_10")["custno"]
    sandbox.advance(30)
    assert [topup.seek(c)["code"] for c in (first, second, other)] == ["530", "530", "200"]


def test_a_failure_rule_can_answer_430(topup, sandbox):
    topup.rule(mobile=CMCC_NUMBER, outcome="fail", fail_code="430")
    custno = topup.charge()["custno"]
    sandbox.advance(30)
    assert topup.seek(custno) == {"code": "430", "custno": custno, "info": "order failed"}
    assert topup.balance()["freeze"] == 0


def test_a_success_rule_wins_over_the_failure_rate(topup, sandbox):
    topup.settings(failure_rate=1)
    topup.rule(mobile=CMCC_NUMBER, outcome="success")
    custno = topup.charge()["custno"]
    sandbox.advance(30)
    assert topup.seek(custno)["code"] == "200"


@pytest.mark.parametrize("charge_code", ["410", "511"])
def test_a_charge_answered_410_or_511_still_creates_the_order(topup, sandbox, charge_code):
    topup.rule(mobile=CMCC_NUMBER, charge_code=charge_code)
    answer = topup.charge(custno="R1")
    assert answer["code"] == charge_code
    assert answer["custno"] == "R1"
    assert answer["orderno"]
    assert topup.seek("R1")["code"] == "201"
    assert topup.balance()["freeze"] == 2.85
    sandbox.advance(30)
    assert topup.seek("R1")["code"] == "200"


def test_a_manual_order_ends_at_511_with_its_price_still_frozen(topup, sandbox):
    topup.rule(mobile=CMCC_NUMBER, outcome="manual")
    with receiving() as receiver:
        topup.settings(callback_url=receiver.url)
        custno = topup.charge()["custno"]
        sandbox.advance(30)
    assert topup.seek(custno)["code"] == "511"
    assert [body["code"] for body in receiver.bodies] == ["511"]
    assert topup.balance()["freeze"] == 2.85


@pytest.mark.parametrize(("outcome", "code", "balance"), [
    ("success", "200", Decimal("997.15")), ("fail", "530", Decimal("1000.00")),
])
def test_a_manual_order_confirmed_by_hand_settles_and_calls_back(topup, sandbox, outcome,
                                                                 code, balance):
    topup.rule(mobile=CMCC_NUMBER, outcome="manual")
    with receiving() as receiver:
        topup.settings(callback_url=receiver.url)
        custno = topup.charge()["custno"]
        sandbox.advance(30)
        response = sandbox.control("POST", f"/topup/orders/{custno}/resolve",
                                   {"outcome": outcome})
        sandbox.advance(1)
    assert response.status_code == 200
    assert response.json()["code"] == code
    assert topup.seek(custno)["code"] == code
    assert [body["code"] for body in receiver.bodies] == ["511", code]
    answer = topup.balance()
    assert (Decimal(str(answer["balance"])), answer["freeze"]) == (balance, 0)


def test_only_an_order_at_511_can_be_confirmed_by_hand(topup, sandbox):
    custno = topup.charge()["custno"]
    response = sandbox.control("POST", f"/topup/orders/{custno}/resolve", {"outcome": "fail"})
    assert response.status_code == 409
    assert "511" in response.json()["error"]


def test_confirming_an_unknown_order_is_404(sandbox):
    response = sandbox.control("POST", "/topup/orders/NOPE/resolve", {"outcome": "fail"})
    assert response.status_code == 404


def test_confirming_without_an_outcome_is_400(topup, sandbox):
    custno = topup.charge()["custno"]
    response = sandbox.control("POST", f"/topup/orders/{custno}/resolve", {"outcome": "maybe"})
    assert response.status_code == 400
    assert response.json()["field"] == "outcome"


def test_a_number_ruled_to_get_no_callback_gets_none(topup, sandbox):
    topup.rule(mobile=CMCC_NUMBER, callback="none")
    with receiving() as receiver:
        topup.settings(callback_url=receiver.url)
        custno = topup.charge()["custno"]
        sandbox.advance(30)
        sandbox.advance(600)
    assert receiver.calls == []
    assert topup.seek(custno)["code"] == "200"


def test_a_duplicate_callback_arrives_twice_even_when_acknowledged(topup, sandbox):
    topup.rule(mobile=CMCC_NUMBER, callback="duplicate")
    with receiving() as receiver:
        topup.settings(callback_url=receiver.url)
        topup.charge()
        sandbox.advance(30)
        sandbox.advance(600)
    first, second = receiver.bodies
    assert first == second
    assert all(attempt["acknowledged"] for attempt in topup.callbacks())


def test_a_late_callback_comes_after_the_outcome_can_be_queried(topup, sandbox):
    topup.rule(mobile=CMCC_NUMBER, callback="late", callback_delay_s=600)
    with receiving() as receiver:
        topup.settings(callback_url=receiver.url)
        custno = topup.charge()["custno"]
        sandbox.advance(30)
        assert topup.seek(custno)["code"] == "200"
        sandbox.advance(590)
        assert receiver.calls == []
        sandbox.advance(10)
        assert [body["code"] for body in receiver.bodies] == ["200"]


def test_a_late_callback_waits_300_seconds_by_default(topup):
    assert topup.rule(mobile=CMCC_NUMBER, callback="late")["callback_delay_s"] == 300


def test_a_new_rule_for_a_number_replaces_the_old_one(topup, sandbox):
    topup.rule(mobile=CMCC_NUMBER, outcome="fail")
    topup.rule(mobile="+86" + CMCC_NUMBER, outcome="success")
    rules = sandbox.control("GET", "/topup/rules").json()["rules"]
    assert [(rule["mobile"], rule["outcome"]) for rule in rules] == [(CMCC_NUMBER, "success")]


def test_deleting_the_rules_restores_the_default_behaviour(topup, sandbox):
    topup.rule(mobile=CMCC_NUMBER, outcome="fail")
    assert sandbox.control("DELETE", "/topup/rules").json() == {"deleted": 1}
    custno = topup.charge()["custno"]
    sandbox.advance(30)
    assert topup.seek(custno)["code"] == "200"


@pytest.mark.parametrize(("body", "field"), [
    ({"outcome": "fail"}, "mobile"),
    ({"mobile": "12345"}, "mobile"),
    ({"mobile": CMCC_NUMBER, "outcome": "explode"}, "outcome"),
    ({"mobile": CMCC_NUMBER, "charge_code": "200x"}, "charge_code"),
    ({"mobile": CMCC_NUMBER, "charge_code": 410}, "charge_code"),
    ({"mobile": CMCC_NUMBER, "outcome": "fail", "fail_code": "500"}, "fail_code"),
    ({"mobile": CMCC_NUMBER, "outcome": "success", "fail_code": "430"}, "fail_code"),
    ({"mobile": CMCC_NUMBER, "callback": "sometimes"}, "callback"),
    ({"mobile": CMCC_NUMBER, "callback_delay_s": 10}, "callback_delay_s"),
    ({"mobile": CMCC_NUMBER, "callback": "late", "callback_delay_s": -1}, "callback_delay_s"),
    ({"mobile": CMCC_NUMBER, "colour": "red"}, "colour"),
])
def test_a_bad_rule_is_refused_naming_the_field(sandbox, body, field):
    response = sandbox.control("POST", "/topup/rules", body)
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert sandbox.control("GET", "/topup/rules").json()["rules"] == []
