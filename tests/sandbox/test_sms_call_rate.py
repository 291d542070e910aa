"""The sandbox's calls-per-second limit on sending (control API `calls_per_second`): a call over
it answers 429 TOO_MANY_REQUESTS with a Retry-After of whole seconds and stores nothing."""

from __future__ import annotations

import time

import pytest

from sandbox.sms import call_rate
from tests.sandbox.test_sms_support import NUMBER, SmsApi


@pytest.fixture
def api(sandbox):
    api = SmsApi(sandbox)
    api.settings(delivery_delay_s=600)
    return api


def test_a_call_over_the_limit_is_429_with_retry_after_and_stores_nothing(api):
    template = api.approved_template()
    api.settings(calls_per_second=2)
    answers = [api.send(NUMBER, template["id"], "1234") for _ in range(3)]
    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert answers[2].json()["error_code"] == "TOO_MANY_REQUESTS"
    assert answers[2].headers["Retry-After"] == "1"
    assert len(api.messages()) == 2
    time.sleep(1.05)
    assert api.send(NUMBER, template["id"], "1234").status_code == 200


def test_a_send_latency_delays_the_answer(api):
    template = api.approved_template()
    api.settings(send_latency_s=0.3)
    started = time.monotonic()
    assert api.send(NUMBER, template["id"], "1234").status_code == 200
    assert time.monotonic() - started >= 0.3


def test_without_a_limit_every_call_goes(api):
    template = api.approved_template()
    assert {api.send(NUMBER, template["id"], "1234").status_code for _ in range(6)} == {200}


def test_the_window_is_the_last_second() -> None:
    call_rate.forget()
    assert [call_rate.admit(2, now) for now in (10.0, 10.2)] == [None, None]
    assert call_rate.admit(2, 10.5) == pytest.approx(0.5)
    assert call_rate.admit(2, 11.0) is None  # the call of 10.0 left the window
    assert call_rate.retry_after_header(0.2) == "1"
    assert call_rate.retry_after_header(1.5) == "2"
    assert call_rate.admit(0, 11.0) is None  # 0: no limit
    call_rate.forget()
