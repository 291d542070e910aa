"""POST /api/messages: both body encodings, one result item per number in order, and every
refusal of a whole call."""

import pytest

from tests.sandbox.test_sms_support import NUMBER, OTHER_NUMBER, SmsApi, error_of


@pytest.fixture
def api(sandbox):
    api = SmsApi(sandbox)
    api.settings(delivery_delay_s=600)
    return api


@pytest.fixture
def template(api):
    return api.approved_template()


@pytest.mark.parametrize("form", [False, True], ids=["json", "form"])
def test_it_sends_with_either_body_encoding(api, template, form):
    response = api.send(NUMBER, template["id"], "1234", form=form)
    assert response.status_code == 200
    [item] = response.json()["message_ids"]
    assert item == {"message_id": item["message_id"], "mobile": NUMBER}
    [message] = api.messages()
    assert message["id"] == item["message_id"]
    assert message["content"] == "您的验证码是1234，5分钟内有效【落子時】"
    assert message["status"] == "processing"
    assert message["sent_at"] is None


def test_it_accepts_the_template_id_as_a_json_string(api, template):
    response = api.send(NUMBER, str(template["id"]), "1234")
    assert response.status_code == 200
    assert "message_id" in response.json()["message_ids"][0]


def test_it_answers_one_item_per_number_in_order(api, template):
    mobiles = f"{NUMBER},12345,+86{OTHER_NUMBER}, 8613700137000 ,,1380013800a"
    items = api.sent_items(mobiles, template["id"])
    assert [item["mobile"] for item in items] == \
        [NUMBER, "12345", f"+86{OTHER_NUMBER}", "8613700137000", "", "1380013800a"]
    assert [item.get("error_code") for item in items] == \
        [None, "ILLEGAL_MOBILE", None, None, "ILLEGAL_MOBILE", "ILLEGAL_MOBILE"]
    accepted = [item["message_id"] for item in items if "message_id" in item]
    assert accepted == sorted(accepted)
    assert sorted(message["mobile"] for message in api.messages()) == \
        sorted([NUMBER, OTHER_NUMBER, "13700137000"])


@pytest.mark.parametrize("mobile", ["12800128000", "1380013800", "138001380001", "+1380013800"])
def test_it_refuses_numbers_that_are_not_mainland_mobiles(api, template, mobile):
    [item] = api.sent_items(mobile, template["id"])
    assert item == {"error_code": "ILLEGAL_MOBILE", "mobile": mobile}
    assert api.messages() == []


def test_the_sign_goes_on_top_when_asked(api):
    template = api.approved_template(sign_location="top")
    api.sent_items(NUMBER, template["id"], "99")
    assert api.messages()[0]["content"] == "【落子時】您的验证码是99，5分钟内有效"


def test_variables_are_filled_by_their_number(api):
    template = api.approved_template(content="{$var2}您好，订单{$var1}已发货，{$var2}请查收")
    api.sent_items(NUMBER, template["id"], "A100|张三|多余")
    assert api.messages()[0]["content"] == "张三您好，订单A100已发货，张三请查收【落子時】"


def test_it_refuses_too_few_variable_values(api):
    template = api.approved_template(content="订单{$var1}由{$var2}配送")
    response = api.send(NUMBER, template["id"], "A100")
    assert error_of(response) == (409, "ILLEGAL_PARAMER")
    assert "2" in response.json()["message"]


def test_it_refuses_vars_that_are_not_a_string(api, template):
    response = api.request("POST", "/api/messages",
                           json={"mobile": NUMBER, "template_id": template["id"], "vars": [1]})
    assert error_of(response) == (409, "ILLEGAL_PARAMER")


def test_it_refuses_a_mobile_that_is_not_a_string(api, template):
    response = api.request("POST", "/api/messages",
                           json={"mobile": 13800138000, "template_id": template["id"]})
    assert error_of(response) == (409, "ILLEGAL_PARAMER")


def test_it_refuses_a_body_that_is_not_json(api):
    response = api.request("POST", "/api/messages", data="mobile=1",
                           headers={"Content-Type": "application/json"})
    assert error_of(response) == (409, "ILLEGAL_PARAMER")


def test_it_refuses_a_rendered_message_above_350_characters(api):
    template = api.approved_template(content="通知：{$var1}")
    response = api.send(NUMBER, template["id"], "x" * 343)  # 3 + 343 + 3 + 2 = 351
    assert error_of(response) == (409, "ILLEGAL_CONTENT_LENGTH")
    assert api.messages() == []


def test_it_accepts_a_rendered_message_of_350_characters(api):
    template = api.approved_template(content="通知：{$var1}")
    assert api.send(NUMBER, template["id"], "x" * 342).status_code == 200


@pytest.mark.parametrize("missing", ["mobile", "template_id"])
@pytest.mark.parametrize("form", [False, True], ids=["json", "form"])
def test_it_refuses_a_missing_field(api, template, missing, form):
    body = {"mobile": NUMBER, "template_id": template["id"], "vars": "1"}
    del body[missing]
    if form:
        response = api.request("POST", "/api/messages", data=body)
    else:
        response = api.request("POST", "/api/messages", json=body)
    assert error_of(response) == (400, "MISSING_PARAMETER")
    assert missing in response.json()["message"]


@pytest.mark.parametrize("form", [False, True], ids=["json", "form"])
def test_it_refuses_an_empty_mobile(api, template, form):
    assert error_of(api.send("", template["id"], form=form)) == (400, "MISSING_PARAMETER")


@pytest.mark.parametrize("template_id", ["abc", "1.5", 2.5, True, -1])
def test_it_refuses_a_template_id_that_is_not_an_integer(api, template_id):
    assert error_of(api.send(NUMBER, template_id)) == (422, "ILLEGAL_TEMPLATE_ID")


def test_it_refuses_an_unknown_template(api):
    assert error_of(api.send(NUMBER, 777_777)) == (404, "TEMPLATE_NOT_FOUND")


def test_it_refuses_a_template_under_review(api):
    template = api.created_template()
    assert error_of(api.send(NUMBER, template["id"], "1")) == (409, "TEMPLATE_AUDITING")


def test_it_refuses_an_approved_template_edited_since(api, template):
    api.edit(template["id"], title="改过")
    assert error_of(api.send(NUMBER, template["id"], "1")) == (409, "TEMPLATE_AUDITING")


def test_it_refuses_a_template_that_failed_review(api):
    template = api.created_template()
    api.review(template["id"], "defeat")
    assert error_of(api.send(NUMBER, template["id"], "1")) == (409, "TEMPLATE_FAILED")


def test_it_accepts_1000_numbers(api, template):
    mobiles = ",".join(f"1380000{index:04d}" for index in range(1000))
    items = api.sent_items(mobiles, template["id"])
    assert len(items) == 1000
    assert all("message_id" in item for item in items)


def test_it_refuses_the_whole_call_above_1000_numbers(api, template):
    mobiles = ",".join(f"1380000{index:04d}" for index in range(1001))
    response = api.send(mobiles, template["id"], "1")
    assert error_of(response) == (409, "MOBILE_LIMIT")
    assert api.messages() == []
