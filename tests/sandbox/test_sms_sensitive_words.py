"""The provider refuses politically sensitive or vulgar wording (sms-and-topup.md): the
sandbox keeps such a list, set by its control API (`/sms/words`), and refuses a template or a
message whose variables hold one of its words with 409 ILLEGAL_PARAMER naming the word and
the field."""

from __future__ import annotations

import pytest

from tests.sandbox.test_sms_support import SmsApi, error_of


@pytest.fixture
def api(sandbox):
    api = SmsApi(sandbox)
    response = sandbox.control("POST", "/sms/words", {"words": ["违禁词", "Spam"]})
    assert response.status_code == 200 and response.json()["words"] == ["Spam", "违禁词"]
    return api


def test_a_template_holding_a_listed_word_is_refused_naming_it(api):
    response = api.create_template(content="本店有违禁词{$var1}出售")
    assert error_of(response) == (409, "ILLEGAL_PARAMER")
    assert "content" in response.json()["message"] and "违禁词" in response.json()["message"]


def test_the_list_is_case_insensitive_and_covers_the_title(api):
    response = api.create_template(title="SPAM 通知")
    assert error_of(response) == (409, "ILLEGAL_PARAMER")
    assert "title" in response.json()["message"]


def test_a_variable_value_holding_a_listed_word_is_refused(api):
    template = api.approved_template()
    response = api.send("13800138000", template["id"], "违禁词")
    assert error_of(response) == (409, "ILLEGAL_PARAMER")
    assert "vars" in response.json()["message"]
    assert api.send("13800138000", template["id"], "123456").status_code == 200


def test_an_empty_list_clears_it_and_a_bad_list_names_the_field(api):
    bad = api.sandbox.control("POST", "/sms/words", {"words": "违禁词"})
    assert bad.status_code == 400 and bad.json()["field"] == "words"
    assert api.sandbox.control("POST", "/sms/words", {"words": []}).json() == {"words": []}
    assert api.create_template(content="本店有违禁词{$var1}出售").status_code == 201
