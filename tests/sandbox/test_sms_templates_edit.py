"""GET /api/templates with filters, PATCH (edit and resubmit) and DELETE."""

import pytest

from tests.sandbox.test_sms_support import SmsApi, error_of


@pytest.fixture
def api(sandbox):
    return SmsApi(sandbox)


def ids(response):
    assert response.status_code == 200, response.text
    return [template["id"] for template in response.json()["templates"]]


def test_it_filters_the_list_by_status_type_and_report_type(api):
    approved = api.approved_template(type="industry", report_type="general")
    refused = api.created_template(type="marketing", report_type="vip",
                                   content="新品上市{$var1}，退订回T")
    api.review(refused["id"], "defeat")
    waiting = api.created_template(type="marketing", report_type="general",
                                   content="会员日{$var1}折，退订回N")
    assert ids(api.templates()) == [approved["id"], refused["id"], waiting["id"]]
    assert ids(api.templates(status="success")) == [approved["id"]]
    assert ids(api.templates(status="defeat")) == [refused["id"]]
    assert ids(api.templates(status="review")) == [waiting["id"]]
    assert ids(api.templates(type="marketing")) == [refused["id"], waiting["id"]]
    assert ids(api.templates(report_type="vip")) == [refused["id"]]
    assert ids(api.templates(type="marketing", report_type="general")) == [waiting["id"]]


@pytest.mark.parametrize(("name", "value", "code"), [
    ("status", "approved", "ILLEGAL_PARAMER"),
    ("type", "notice", "ILLEGAL_PARAMER"),
    ("report_type", "premium", "ILLEGAL_REPORT_TYPE"),
])
def test_it_refuses_an_unknown_filter_value(api, name, value, code):
    assert error_of(api.templates(**{name: value})) == (409, code)


def test_editing_an_approved_template_sends_it_back_to_review(api):
    template = api.approved_template()
    response = api.edit(template["id"], title="新标题", content="您的动态码{$var1}",
                        temp_sign="新签名", sign_location="top")
    assert response.status_code == 200
    edited = response.json()
    assert edited["status"] == "review"
    assert (edited["title"], edited["content"], edited["temp_sign"], edited["sign_location"]) \
        == ("新标题", "您的动态码{$var1}", "新签名", "top")
    assert edited["updated_at"] >= template["updated_at"]
    assert api.templates(status="review").json()["templates"][0]["id"] == template["id"]


def test_an_edit_keeps_the_fields_it_does_not_name(api):
    template = api.approved_template()
    edited = api.edit(template["id"], title="只改标题").json()
    assert edited["content"] == template["content"]
    assert edited["temp_sign"] == template["temp_sign"]


def test_an_empty_edit_resubmits_a_refused_template(api):
    template = api.created_template()
    api.review(template["id"], "defeat")
    response = api.edit(template["id"])
    assert response.status_code == 200
    assert response.json()["status"] == "review"


def test_an_edited_template_is_checked_like_a_new_one(api):
    template = api.created_template()
    assert error_of(api.edit(template["id"], title="这个标题实在是太长了超过限制")) == \
        (409, "ILLEGAL_TITLE")
    assert error_of(api.edit(template["id"], temp_sign="ab")) == (409, "ILLEGAL_SIGNATURE")
    assert error_of(api.edit(template["id"], content="【广告】{$var1}")) == (409, "ILLEGAL_PARAMER")
    assert error_of(api.edit(template["id"], content="x" * 347)) == \
        (409, "ILLEGAL_CONTENT_LENGTH")
    assert error_of(api.edit(template["id"], sign_location="left")) == (409, "ILLEGAL_PARAMER")
    assert error_of(api.edit(template["id"], title="")) == (400, "MISSING_PARAMETER")


def test_a_refused_edit_changes_nothing(api):
    template = api.approved_template()
    api.edit(template["id"], title="好", temp_sign="ab")
    assert api.templates().json()["templates"][0] == template


@pytest.mark.parametrize("field", ["type", "report_type"])
def test_type_and_report_type_cannot_be_edited(api, field):
    template = api.created_template(type="industry", report_type="general")
    new_value = {"type": "marketing", "report_type": "vip"}[field]
    response = api.edit(template["id"], **{field: new_value})
    assert error_of(response) == (409, "ILLEGAL_PARAMER")
    assert field in response.json()["message"]


def test_editing_an_unknown_template_answers_not_found(api):
    assert error_of(api.edit(999_999, title="无")) == (404, "TEMPLATE_NOT_FOUND")


@pytest.mark.parametrize("template_id", ["abc", "1.5", "-3"])
def test_editing_a_non_integer_id_answers_422(api, template_id):
    assert error_of(api.edit(template_id, title="无")) == (422, "ILLEGAL_TEMPLATE_ID")


def test_deleting_a_template_answers_204_and_removes_it(api):
    template = api.created_template()
    response = api.request("DELETE", f"/api/templates/{template['id']}")
    assert response.status_code == 204
    assert response.content == b""
    assert api.templates().json() == {"templates": []}


def test_deleting_an_unknown_template_answers_not_found(api):
    response = api.request("DELETE", "/api/templates/424242")
    assert error_of(response) == (404, "TEMPLATE_NOT_FOUND")


def test_deleting_a_huge_id_answers_not_found(api):
    response = api.request("DELETE", "/api/templates/" + "9" * 30)
    assert error_of(response) == (404, "TEMPLATE_NOT_FOUND")


def test_deleting_a_non_integer_id_answers_422(api):
    response = api.request("DELETE", "/api/templates/first")
    assert error_of(response) == (422, "ILLEGAL_TEMPLATE_ID")


def test_an_edit_may_come_as_a_form_urlencoded_body(api):
    template = api.created_template()
    response = api.request("PATCH", f"/api/templates/{template['id']}",
                           data={"title": "表单修改"})
    assert response.status_code == 200
    assert response.json()["title"] == "表单修改"
