"""Orders move from 201 to their outcome once progress_delay_s has passed on the sandbox clock."""

import pytest

from tests.sandbox.test_topup_support import TopupClient


@pytest.fixture
def topup(sandbox):
    client = TopupClient(sandbox)
    client.refresh_token()
    client.settings(progress_delay_s=120)
    return client


def test_a_new_order_is_in_progress(topup):
    custno = topup.charge()["custno"]
    assert topup.seek(custno) == {"code": "201", "custno": custno,
                                  "info": "top-up in progress"}


def test_it_stays_in_progress_until_the_delay_has_passed(topup, sandbox):
    custno = topup.charge()["custno"]
    sandbox.advance(100)
    assert topup.seek(custno)["code"] == "201"
    sandbox.advance(20)
    assert topup.seek(custno)["code"] == "200"


def test_it_succeeds_by_default(topup, sandbox):
    custno = topup.charge()["custno"]
    sandbox.advance(120)
    order = topup.order(custno)
    assert order["code"] == "200"
    assert order["finished_at"] == order["due_at"] == order["created_at"] + 120


def test_it_fails_with_530_when_the_failure_rate_is_1(topup, sandbox):
    topup.settings(failure_rate=1)
    custno = topup.charge()["custno"]
    sandbox.advance(120)
    assert topup.seek(custno) == {"code": "530", "custno": custno, "info": "top-up failed"}


def test_the_outcome_is_fixed_when_the_order_is_created(topup, sandbox):
    custno = topup.charge()["custno"]
    topup.settings(failure_rate=1)
    sandbox.advance(120)
    assert topup.seek(custno)["code"] == "200"


def test_the_delay_is_read_when_the_order_is_created(topup, sandbox):
    custno = topup.charge()["custno"]
    topup.settings(progress_delay_s=5)
    sandbox.advance(60)
    assert topup.seek(custno)["code"] == "201"


def test_a_final_code_never_moves_again(topup, sandbox):
    custno = topup.charge()["custno"]
    sandbox.advance(120)
    sandbox.advance(30 * 3600)
    topup.refresh_token()
    assert topup.seek(custno)["code"] == "200"


def test_with_no_delay_the_outcome_is_there_at_the_first_query(topup):
    topup.settings(progress_delay_s=0)
    custno = topup.charge()["custno"]
    assert topup.seek(custno)["code"] == "200"


def test_orders_progress_independently(topup, sandbox):
    first = topup.charge()["custno"]
    sandbox.advance(60)
    second = topup.charge()["custno"]
    sandbox.advance(60)
    assert topup.seek(first)["code"] == "200"
    assert topup.seek(second)["code"] == "201"
