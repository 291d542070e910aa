"""seekOrder: by custno within one hour either side of `requesttime` (Asia/Shanghai), or the
last week without it; 516 outside; 510 past 10 queries per custno a minute."""

import math
from datetime import UTC, datetime, timedelta, timezone

import pytest

from tests.sandbox.test_topup_support import TopupClient

SHANGHAI = timezone(timedelta(hours=8))


def shanghai(unix_s):
    return datetime.fromtimestamp(unix_s, tz=SHANGHAI).strftime("%Y-%m-%d %H:%M:%S")


@pytest.fixture
def topup(sandbox):
    client = TopupClient(sandbox)
    client.refresh_token()
    return client


@pytest.fixture
def placed(topup):
    """The custno and creation time (sandbox clock) of an order."""
    custno = topup.charge()["custno"]
    return custno, topup.order(custno)["created_at"]


def test_it_answers_the_orders_code_and_echoes_the_custno(topup, placed):
    custno, _ = placed
    assert topup.seek(custno) == {"code": "201", "custno": custno,
                                  "info": "top-up in progress"}


def test_an_unknown_custno_gets_516(topup):
    assert topup.seek("NOPE") == {"code": "516", "custno": "NOPE",
                                  "info": "no order NOPE in the time searched"}


def test_without_requesttime_it_searches_the_last_week(topup, sandbox, placed):
    custno, _ = placed
    sandbox.advance(7 * 24 * 3600 - 60)
    topup.refresh_token()
    assert topup.seek(custno)["code"] == "200"
    sandbox.advance(120)
    topup.refresh_token()
    assert topup.seek(custno)["code"] == "516"


def test_a_requesttime_an_hour_after_creation_still_finds_it(topup, placed):
    custno, created = placed
    assert topup.seek(custno, shanghai(math.floor(created) + 3600))["code"] == "201"


def test_a_requesttime_just_over_an_hour_after_creation_does_not(topup, placed):
    custno, created = placed
    assert topup.seek(custno, shanghai(math.floor(created) + 3602))["code"] == "516"


def test_a_requesttime_an_hour_before_creation_still_finds_it(topup, placed):
    custno, created = placed
    assert topup.seek(custno, shanghai(math.ceil(created) - 3600))["code"] == "201"


def test_a_requesttime_just_over_an_hour_before_creation_does_not(topup, placed):
    custno, created = placed
    assert topup.seek(custno, shanghai(math.floor(created) - 3601))["code"] == "516"


def test_requesttime_is_read_as_shanghai_time(topup, placed):
    custno, created = placed
    utc_text = datetime.fromtimestamp(created, tz=UTC).strftime("%Y-%m-%d %H:%M:%S")
    assert topup.seek(custno, utc_text)["code"] == "516"  # 8 hours off


def test_requesttime_finds_an_order_older_than_a_week(topup, sandbox, placed):
    custno, created = placed
    sandbox.advance(30 * 24 * 3600)
    topup.refresh_token()
    assert topup.seek(custno)["code"] == "516"
    assert topup.seek(custno, shanghai(created))["code"] == "200"


@pytest.mark.parametrize("requesttime", ["2024/01/01 00:00:00", "2024-01-01T00:00:00",
                                         "2024-01-01 0:00:00", "2024-02-30 00:00:00",
                                         "2024-01-01 24:00:00", ""])
def test_a_malformed_requesttime_gets_507(topup, placed, requesttime):
    custno, _ = placed
    answer = topup.seek(custno, requesttime)
    assert answer["code"] == "507"
    assert "requesttime" in answer["info"]


def test_a_requesttime_that_is_not_a_string_gets_507(topup, placed):
    custno, _ = placed
    answer = topup.post("/seekOrder", {"appkey": topup.appkey, "custno": custno,
                                       "requesttime": 20240101, "sign": "x"})
    assert answer["code"] == "507"


def test_a_custno_of_30_characters_gets_532(topup):
    assert topup.seek("A" * 30)["code"] == "532"


def test_a_missing_custno_gets_507(topup):
    answer = topup.post("/seekOrder", {"appkey": topup.appkey, "sign": "x"})
    assert answer == {"code": "507", "custno": "", "info": "custno: is required"}


def test_the_11th_query_for_a_custno_within_a_minute_gets_510(topup, placed):
    custno, _ = placed
    assert [topup.seek(custno)["code"] for _ in range(10)] == ["201"] * 10
    assert topup.seek(custno)["code"] == "510"


def test_queries_for_other_custnos_are_not_limited_by_it(topup, placed):
    custno, _ = placed
    for _ in range(11):
        topup.seek(custno)
    assert topup.seek("OTHER")["code"] == "516"


def test_queries_are_answered_again_once_the_minute_has_passed(topup, sandbox, placed):
    custno, _ = placed
    for _ in range(11):
        topup.seek(custno)
    sandbox.advance(60)
    assert topup.seek(custno)["code"] != "510"


def test_an_unknown_custno_is_limited_too(topup):
    codes = [topup.seek("NOPE")["code"] for _ in range(11)]
    assert codes == ["516"] * 10 + ["510"]
