"""The sandbox clock: real time by default, moved forward on request, back on reset."""

import time
from email.utils import parsedate_to_datetime

import requests


def test_it_starts_at_real_time(sandbox):
    assert abs(sandbox.now() - time.time()) < 5


def test_it_advances_by_the_requested_seconds(sandbox):
    before = sandbox.now()
    after = sandbox.advance(86_400)
    assert 86_400 <= after - before < 86_400 + 5
    assert sandbox.now() >= after


def test_reset_brings_the_clock_back_to_real_time(sandbox):
    sandbox.advance(3600)
    sandbox.reset()
    assert abs(sandbox.now() - time.time()) < 5


def test_it_rejects_an_advance_without_seconds(sandbox):
    response = sandbox.control("POST", "/clock/advance", {"secs": 10})
    assert response.status_code == 400
    assert response.json()["field"] == "seconds"


def test_it_rejects_a_negative_advance(sandbox):
    response = sandbox.control("POST", "/clock/advance", {"seconds": -5})
    assert response.status_code == 400
    assert "seconds" in response.json()["error"]


def test_it_rejects_a_body_that_is_not_json(sandbox):
    response = sandbox.control("POST", "/clock/advance", "nonsense")
    assert response.status_code == 400


def test_services_answer_with_a_date_on_the_sandbox_clock(sandbox):
    # Clients correct their clock from this header when a signature's Date is refused, so it
    # must be the clock the sandbox judges them by, not the machine's.
    now = sandbox.advance(7200)
    for key in ("sms_api_url", "storage_url", "process_url", "delivery_url"):
        answer = requests.get(f"{sandbox.info[key]}/no-such-endpoint", timeout=5)
        stated = parsedate_to_datetime(answer.headers["Date"]).timestamp()
        assert abs(stated - now) < 5, key
