"""The callback: signed, POSTed as JSON once the outcome is known, acknowledged only by HTTP
200 with {"info": "1"}, otherwise called again 60 s later, 3 calls in total."""

import pytest

from tests.sandbox.test_topup_support import ACK, TopupClient, receiving, sha1

NOT_ACK = (500, '{"error": "busy"}')


@pytest.fixture
def topup(sandbox):
    client = TopupClient(sandbox)
    client.refresh_token()
    client.settings(progress_delay_s=30)
    return client


def expected_sign(body, token):
    return sha1(f"code{body['code']}custno{body['custno']}info{body['info']}"
                f"orderno{body['orderno']}token{token}")


def test_it_is_posted_as_signed_json_once_the_outcome_is_known(topup, sandbox):
    with receiving() as receiver:
        topup.settings(callback_url=receiver.url)
        placed = topup.charge()
        assert receiver.calls == []
        sandbox.advance(30)
        [call] = receiver.calls
    assert call["content_type"].startswith("application/json")
    body = call["body"]
    assert set(body) == {"code", "orderno", "custno", "info", "sign"}
    assert body["code"] == "200"
    assert body["custno"] == placed["custno"]
    assert body["orderno"] == placed["orderno"]
    assert body["sign"] == expected_sign(body, topup.token)


def test_a_failure_is_called_back_with_530(topup, sandbox):
    topup.settings(failure_rate=1)
    with receiving() as receiver:
        topup.settings(callback_url=receiver.url)
        topup.charge()
        sandbox.advance(30)
    assert [body["code"] for body in receiver.bodies] == ["530"]


def test_it_is_called_3_times_60_seconds_apart_when_not_acknowledged(topup, sandbox):
    with receiving(lambda call: NOT_ACK) as receiver:
        topup.settings(callback_url=receiver.url)
        topup.charge()
        sandbox.advance(30)
        assert len(receiver.calls) == 1
        sandbox.advance(59)
        assert len(receiver.calls) == 1
        sandbox.advance(1)
        assert len(receiver.calls) == 2
        sandbox.advance(60)
        assert len(receiver.calls) == 3
        sandbox.advance(3600)
        assert len(receiver.calls) == 3
    assert receiver.bodies[0] == receiver.bodies[1] == receiver.bodies[2]
    attempts = topup.callbacks()
    assert [attempt["call"] for attempt in attempts] == [1, 2, 3]
    assert [attempt["status"] for attempt in attempts] == [500, 500, 500]
    assert not any(attempt["acknowledged"] for attempt in attempts)
    gaps = [later["sent_at"] - earlier["sent_at"]
            for earlier, later in zip(attempts, attempts[1:], strict=False)]
    assert all(60 <= gap < 65 for gap in gaps)


def test_it_stops_once_acknowledged(topup, sandbox):
    with receiving(lambda call: NOT_ACK if call == 1 else ACK) as receiver:
        topup.settings(callback_url=receiver.url)
        topup.charge()
        sandbox.advance(30)
        sandbox.advance(60)
        sandbox.advance(60)
        sandbox.advance(60)
    assert len(receiver.calls) == 2
    assert [attempt["acknowledged"] for attempt in topup.callbacks()] == [False, True]


@pytest.mark.parametrize("reply", [
    (200, '{"info": 1}'), (200, "1"), (200, '{"info": "ok"}'), (200, '["1"]'),
    (201, '{"info": "1"}'),
])
def test_only_200_with_info_1_acknowledges(topup, sandbox, reply):
    with receiving(lambda call: reply) as receiver:
        topup.settings(callback_url=receiver.url)
        topup.charge()
        sandbox.advance(30)
        sandbox.advance(60)
    assert len(receiver.calls) == 2


def test_each_call_is_signed_with_the_token_current_when_it_is_sent(topup, sandbox):
    with receiving(lambda call: NOT_ACK) as receiver:
        topup.settings(callback_url=receiver.url)
        topup.charge()
        sandbox.advance(30)
        first_token = topup.token
        second_token = topup.refresh_token()
        sandbox.advance(60)
    first, second = receiver.bodies
    assert first["sign"] == expected_sign(first, first_token)
    assert second["sign"] == expected_sign(second, second_token)
    assert first["sign"] != second["sign"]


def test_one_long_advance_makes_every_call_that_fell_due_meanwhile(topup, sandbox):
    with receiving(lambda call: NOT_ACK) as receiver:
        topup.settings(callback_url=receiver.url)
        topup.charge()
        sandbox.advance(600)  # outcome at 30 s, calls due at 30, 90 and 150 s
        assert len(receiver.calls) == 3
    assert [attempt["call"] for attempt in topup.callbacks()] == [1, 2, 3]


def test_an_unreachable_address_is_recorded_and_retried(topup, sandbox):
    with receiving() as receiver:
        url = receiver.url
    topup.settings(callback_url=url)  # the receiver is gone: connection refused
    topup.charge()
    sandbox.advance(30)
    sandbox.advance(60)
    sandbox.advance(60)
    attempts = topup.callbacks()
    assert len(attempts) == 3
    assert all(attempt["status"] is None and attempt["error"] for attempt in attempts)


def test_without_a_callback_address_nothing_is_called(topup, sandbox):
    custno = topup.charge()["custno"]
    sandbox.advance(30)
    assert topup.seek(custno)["code"] == "200"
    assert topup.callbacks() == []


def test_every_attempt_is_listed_with_its_order(topup, sandbox):
    with receiving() as receiver:
        topup.settings(callback_url=receiver.url)
        placed = topup.charge()
        sandbox.advance(30)
    [attempt] = topup.order(placed["custno"])["callbacks"]
    assert attempt["custno"] == placed["custno"]
    assert attempt["url"] == receiver.url
    assert attempt["body"] == receiver.bodies[0]
    assert attempt["status"] == 200
    assert attempt["response"] == '{"info": "1"}'
    assert attempt["acknowledged"] is True
