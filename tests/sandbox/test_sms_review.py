"""Template review: the administrator's decision through the control API, and the automatic
review `review_delay_s` after submission on the sandbox clock."""

from datetime import datetime

import pytest

from tests.sandbox.test_sms_support import SmsApi


@pytest.fixture
def api(sandbox):
    return SmsApi(sandbox)


def parse_iso(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def status_of(api, template_id):
    templates = {template["id"]: template for template in api.templates().json()["templates"]}
    return templates[template_id]["status"]


@pytest.mark.parametrize("decision", ["success", "defeat"])
def test_the_administrator_decides_a_template_under_review(api, decision):
    template = api.created_template()
    response = api.review(template["id"], decision)
    assert response.status_code == 200
    assert response.json()["status"] == decision
    assert status_of(api, template["id"]) == decision


def test_a_decided_template_cannot_be_decided_again(api):
    template = api.approved_template()
    response = api.review(template["id"], "defeat")
    assert response.status_code == 409
    assert "not under review" in response.json()["error"]
    assert status_of(api, template["id"]) == "success"


def test_a_review_of_an_unknown_template_answers_404(api):
    assert api.review(987_654, "success").status_code == 404


@pytest.mark.parametrize("body", [{}, {"status": "approved"}, {"status": None}])
def test_a_review_without_a_valid_decision_answers_400_naming_status(api, body):
    template = api.created_template()
    response = api.sandbox.control("POST", f"/sms/templates/{template['id']}/review", body)
    assert response.status_code == 400
    assert response.json()["field"] == "status"


def test_auto_review_approves_after_the_delay(api):
    api.settings(auto_review=True, review_delay_s=3600)
    template = api.created_template()
    api.sandbox.advance(3500)
    assert status_of(api, template["id"]) == "review"
    api.sandbox.advance(100)
    assert status_of(api, template["id"]) == "success"


def test_auto_review_stamps_the_moment_the_review_was_due(api):
    api.settings(auto_review=True, review_delay_s=60)
    template = api.created_template()
    api.sandbox.advance(86_400)
    approved = api.templates().json()["templates"][0]
    assert approved["status"] == "success"
    waited = parse_iso(approved["updated_at"]) - parse_iso(template["updated_at"])
    assert abs(waited.total_seconds() - 60) < 0.002


def test_without_auto_review_a_template_waits_for_the_administrator(api):
    api.settings(auto_review=False, review_delay_s=60)
    template = api.created_template()
    api.sandbox.advance(7 * 86_400)
    assert status_of(api, template["id"]) == "review"


def test_turning_auto_review_on_approves_templates_already_waiting(api):
    api.settings(auto_review=False, review_delay_s=60)
    template = api.created_template()
    api.sandbox.advance(120)
    api.settings(auto_review=True)
    api.sandbox.advance(0)
    assert status_of(api, template["id"]) == "success"


def test_an_edit_restarts_the_review_delay(api):
    api.settings(auto_review=True, review_delay_s=600)
    template = api.created_template()
    api.sandbox.advance(500)
    api.edit(template["id"], title="重新提交")
    api.sandbox.advance(500)
    assert status_of(api, template["id"]) == "review"
    api.sandbox.advance(200)
    assert status_of(api, template["id"]) == "success"


def test_auto_review_does_not_touch_a_refused_template(api):
    api.settings(auto_review=True, review_delay_s=60)
    template = api.created_template()
    api.review(template["id"], "defeat")
    api.sandbox.advance(3600)
    assert status_of(api, template["id"]) == "defeat"
