"""POST /api/templates: a valid template is stored under review; every bad field is refused
with the spec's code and HTTP status."""

import re

import pytest

from tests.sandbox.test_sms_support import SmsApi, error_of, template_fields

ISO_MILLIS = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z")
CREATE_FIELDS = ("title", "content", "temp_sign", "sign_location", "type", "report_type")


@pytest.fixture
def api(sandbox):
    return SmsApi(sandbox)


def test_it_creates_a_template_under_review_with_every_field(api):
    response = api.create_template()
    assert response.status_code == 201
    template = response.json()
    assert isinstance(template["id"], int)
    expected = template_fields()
    assert {name: template[name] for name in expected} == expected
    assert template["status"] == "review"
    assert ISO_MILLIS.fullmatch(template["updated_at"])
    assert template["owner"] == {"id": template["owner"]["id"], "name": "sandbox-demo",
                                 "general": 1000, "vip": 1000, "industry": 0, "marketing": 0}


def test_it_accepts_a_form_urlencoded_body(api):
    response = api.request("POST", "/api/templates", data=template_fields(title="表单"))
    assert response.status_code == 201
    assert response.json()["title"] == "表单"


def test_the_new_template_is_listed(api):
    created = api.created_template()
    listed = api.templates().json()["templates"]
    assert [template["id"] for template in listed] == [created["id"]]


@pytest.mark.parametrize("field", CREATE_FIELDS)
def test_it_refuses_a_missing_field(api, field):
    fields = template_fields()
    del fields[field]
    response = api.request("POST", "/api/templates", json=fields)
    assert error_of(response) == (400, "MISSING_PARAMETER")
    assert field in response.json()["message"]


@pytest.mark.parametrize("field", CREATE_FIELDS)
def test_it_refuses_an_empty_field(api, field):
    response = api.create_template(**{field: "  "})
    assert error_of(response) == (400, "MISSING_PARAMETER")


def test_it_refuses_a_field_that_is_not_a_string(api):
    response = api.create_template(title=12)
    assert error_of(response) == (409, "ILLEGAL_PARAMER")


def test_it_refuses_a_body_that_is_not_json(api):
    response = api.request("POST", "/api/templates", data="{not json",
                           headers={"Content-Type": "application/json"})
    assert error_of(response) == (409, "ILLEGAL_PARAMER")


def test_it_refuses_a_json_body_that_is_not_an_object(api):
    response = api.request("POST", "/api/templates", json=["title"])
    assert error_of(response) == (409, "ILLEGAL_PARAMER")


def test_it_accepts_a_title_of_eleven_characters(api):
    assert api.create_template(title="一二三四五六七八九十一").status_code == 201


def test_it_refuses_a_title_of_twelve_characters(api):
    response = api.create_template(title="一二三四五六七八九十一二")
    assert error_of(response) == (409, "ILLEGAL_TITLE")


@pytest.mark.parametrize("sign", ["abc", "八个字的签名好的"])
def test_it_accepts_a_signature_of_three_to_eight_characters(api, sign):
    assert api.create_template(temp_sign=sign).status_code == 201


@pytest.mark.parametrize("sign", ["ab", "九个字的签名太长了", "【公司】", "[ACME]", "A&B Co",
                                  "a b c"])
def test_it_refuses_a_bad_signature(api, sign):
    response = api.create_template(temp_sign=sign)
    assert error_of(response) == (409, "ILLEGAL_SIGNATURE")


def test_it_refuses_an_unknown_report_type(api):
    response = api.create_template(report_type="premium")
    assert error_of(response) == (409, "ILLEGAL_REPORT_TYPE")


def test_it_refuses_an_unknown_type(api):
    response = api.create_template(type="notice")
    assert error_of(response) == (409, "ILLEGAL_PARAMER")


def test_it_refuses_an_unknown_sign_location(api):
    response = api.create_template(sign_location="middle")
    assert error_of(response) == (409, "ILLEGAL_PARAMER")


def test_it_accepts_signature_and_content_of_347_characters(api):
    response = api.create_template(temp_sign="abcdefgh", content="x" * 339)
    assert response.status_code == 201


def test_it_refuses_signature_and_content_of_348_characters(api):
    response = api.create_template(temp_sign="abcdefgh", content="x" * 340)
    assert error_of(response) == (409, "ILLEGAL_CONTENT_LENGTH")


@pytest.mark.parametrize("content", ["【注意】您的验证码是{$var1}", "点击<a>查看", "价格>100元"])
def test_it_refuses_brackets_in_the_body(api, content):
    response = api.create_template(content=content)
    assert error_of(response) == (409, "ILLEGAL_PARAMER")


@pytest.mark.parametrize("content", ["{$var1}", "{$var1} {$var2}"])
def test_it_refuses_a_template_made_only_of_variables(api, content):
    response = api.create_template(content=content)
    assert error_of(response) == (409, "ILLEGAL_PARAMER")


@pytest.mark.parametrize("content", ["您好{$name}", "验证码{$var0}", "验证码{$}"])
def test_it_refuses_a_variable_not_written_var_and_a_number(api, content):
    response = api.create_template(content=content)
    assert error_of(response) == (409, "ILLEGAL_PARAMER")
    assert "{$var1}" in response.json()["message"]
