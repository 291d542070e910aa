"""Delivery progression on the sandbox clock: `processing -> success | failed` after
`delivery_delay_s`, decided by the failure rate, per-number outcome rules and the marketing
unsubscribe rule."""

import time
from datetime import datetime

import pytest

from tests.sandbox.test_sms_support import NUMBER, OTHER_NUMBER, SmsApi


@pytest.fixture
def api(sandbox):
    api = SmsApi(sandbox)
    api.settings(delivery_delay_s=300, failure_rate=0)
    return api


def statuses(api):
    return {message["mobile"]: message["status"] for message in api.messages()}


def parse_iso(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_a_message_stays_processing_until_the_delay_has_passed(api):
    template = api.approved_template()
    api.sent_items(NUMBER, template["id"])
    api.sandbox.advance(290)
    assert statuses(api) == {NUMBER: "processing"}
    assert api.messages()[0]["sent_at"] is None
    api.sandbox.advance(20)
    assert statuses(api) == {NUMBER: "success"}


def test_sent_at_is_the_moment_the_delay_ran_out(api):
    template = api.approved_template()
    api.sent_items(NUMBER, template["id"])
    api.sandbox.advance(86_400)
    [message] = api.messages()
    waited = parse_iso(message["sent_at"]) - parse_iso(message["created_at"])
    assert abs(waited.total_seconds() - 300) < 0.002


def test_every_message_fails_at_failure_rate_one(api):
    api.settings(failure_rate=1)
    template = api.approved_template()
    api.sent_items(f"{NUMBER},{OTHER_NUMBER}", template["id"])
    api.sandbox.advance(300)
    assert statuses(api) == {NUMBER: "failed", OTHER_NUMBER: "failed"}
    assert all(message["sent_at"] for message in api.messages())


def test_an_outcome_rule_decides_for_its_number(api):
    api.force_outcome(f"+86{OTHER_NUMBER}", "failed")
    template = api.approved_template()
    api.sent_items(f"{NUMBER},{OTHER_NUMBER}", template["id"])
    api.sandbox.advance(300)
    assert statuses(api) == {NUMBER: "success", OTHER_NUMBER: "failed"}


def test_an_outcome_rule_for_success_beats_the_failure_rate(api):
    api.settings(failure_rate=1)
    api.force_outcome(NUMBER, "success")
    template = api.approved_template()
    api.sent_items(f"{NUMBER},{OTHER_NUMBER}", template["id"])
    api.sandbox.advance(300)
    assert statuses(api) == {NUMBER: "success", OTHER_NUMBER: "failed"}


def test_outcome_rules_are_listed_replaced_and_cleared(api):
    api.force_outcome(NUMBER, "failed")
    api.force_outcome(NUMBER, "success")
    listed = api.sandbox.control("GET", "/sms/outcomes").json()
    assert listed == {"outcomes": [{"mobile": NUMBER, "status": "success"}]}
    assert api.sandbox.control("DELETE", "/sms/outcomes").json() == {"deleted": 1}
    assert api.sandbox.control("GET", "/sms/outcomes").json() == {"outcomes": []}


@pytest.mark.parametrize(("body", "field"), [
    ({"mobile": "12345", "status": "failed"}, "mobile"),
    ({"status": "failed"}, "mobile"),
    ({"mobile": NUMBER, "status": "processing"}, "status"),
    ({"mobile": NUMBER}, "status"),
])
def test_a_bad_outcome_rule_answers_400_naming_the_field(api, body, field):
    response = api.sandbox.control("POST", "/sms/outcomes", body)
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_a_marketing_template_without_unsubscribe_wording_fails_every_message(api):
    template = api.approved_template(type="marketing", content="周末大促，全场{$var1}折")
    api.sent_items(NUMBER, template["id"], "5")
    api.sandbox.advance(300)
    assert statuses(api) == {NUMBER: "failed"}


def test_the_marketing_rule_beats_an_outcome_rule_for_success(api):
    api.force_outcome(NUMBER, "success")
    template = api.approved_template(type="marketing", content="周末大促，全场{$var1}折")
    api.sent_items(NUMBER, template["id"], "5")
    api.sandbox.advance(300)
    assert statuses(api) == {NUMBER: "failed"}


@pytest.mark.parametrize("ending", ["退订回T", "退订回TD", "退订回N"])
def test_a_marketing_template_with_unsubscribe_wording_delivers(api, ending):
    content = "周末大促，全场{$var1}折，" + ending
    template = api.approved_template(type="marketing", content=content)
    api.sent_items(NUMBER, template["id"], "5")
    api.sandbox.advance(300)
    assert statuses(api) == {NUMBER: "success"}


def test_messages_are_delivered_by_the_background_ticker_without_a_clock_jump(api):
    api.settings(delivery_delay_s=0)
    template = api.approved_template()
    api.sent_items(NUMBER, template["id"])
    deadline = time.monotonic() + 5
    while statuses(api) != {NUMBER: "success"} and time.monotonic() < deadline:
        time.sleep(0.1)
    assert statuses(api) == {NUMBER: "success"}
