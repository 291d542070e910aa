"""Control API `/sms/settings`: read and change the emulator's behaviour and quotas."""

import pytest
import requests

from tests.sandbox.test_sms_support import SmsApi

DEFAULTS = {"auto_review": True, "review_delay_s": 60.0, "review_clock": "fixed",
            "delivery_delay_s": 5.0,
            "failure_rate": 0.0, "calls_per_second": 0, "send_latency_s": 0.0,
            "general": 1000, "vip": 1000}


@pytest.fixture
def api(sandbox):
    return SmsApi(sandbox)


def test_a_fresh_account_has_the_default_settings(api):
    assert api.sandbox.control("GET", "/sms/settings").json() == DEFAULTS


def test_a_change_answers_every_setting(api):
    changed = api.settings(auto_review=False, failure_rate=0.25, vip=7)
    assert changed == DEFAULTS | {"auto_review": False, "failure_rate": 0.25, "vip": 7}
    assert api.sandbox.control("GET", "/sms/settings").json() == changed


def test_an_empty_change_changes_nothing(api):
    assert api.settings() == DEFAULTS


def test_reset_restores_the_defaults(api):
    api.settings(auto_review=False, delivery_delay_s=1, general=3)
    api.sandbox.reset()
    assert api.sandbox.control("GET", "/sms/settings").json() == DEFAULTS


@pytest.mark.parametrize(("body", "field"), [
    ({"auto_review": "yes"}, "auto_review"),
    ({"auto_review": 1}, "auto_review"),
    ({"review_delay_s": -1}, "review_delay_s"),
    ({"review_delay_s": "60"}, "review_delay_s"),
    ({"delivery_delay_s": -0.5}, "delivery_delay_s"),
    ({"failure_rate": 1.5}, "failure_rate"),
    ({"failure_rate": -0.1}, "failure_rate"),
    ({"general": -1}, "general"),
    ({"general": 2.5}, "general"),
    ({"vip": "100"}, "vip"),
    ({"quota": 5}, "quota"),
    ({"calls_per_second": -1}, "calls_per_second"),
    ({"calls_per_second": 2.5}, "calls_per_second"),
    ({"send_latency_s": 11}, "send_latency_s"),
])
def test_a_bad_setting_answers_400_naming_the_field(api, body, field):
    response = api.sandbox.control("POST", "/sms/settings", body)
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert api.sandbox.control("GET", "/sms/settings").json() == DEFAULTS


@pytest.mark.parametrize("literal", ["NaN", "Infinity"])
def test_a_setting_that_is_not_finite_is_refused(api, literal):
    response = requests.post(f"{api.sandbox.control_url}/sms/settings", timeout=30,
                             data=f'{{"failure_rate": {literal}}}',
                             headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json()["field"] == "failure_rate"


def test_a_body_that_is_not_json_is_refused(api):
    response = api.sandbox.control("POST", "/sms/settings", "nonsense")
    assert response.status_code == 400
