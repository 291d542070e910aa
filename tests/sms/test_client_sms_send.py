"""Sending: JSON and form bodies, per-number results, and refusals before any request."""

import json
from urllib.parse import parse_qs

import pytest
import responses

from sms.client import SendResult, SmsClient
from sms.errors import MobileLimitError, SmsResponseError, TemplateAuditingError

BASE = "https://sms.example.test"
TOKEN = "tok-3P83lWwkoV15"
URL = f"{BASE}/api/messages"


@pytest.fixture
def mock():
    with responses.RequestsMock() as rsps:
        yield rsps


@pytest.fixture
def client():
    return SmsClient(BASE, TOKEN)


def answer(*items):
    return {"message_ids": list(items)}


def test_it_sends_a_json_body_by_default(mock, client):
    mock.post(URL, json=answer({"message_id": 1, "mobile": "13800138000"}))

    client.send(12, ["13800138000"], ["张三", "https://e.example/x?a=1"])

    request = mock.calls[0].request
    assert request.method == "POST"
    assert request.url == URL
    assert request.headers["Authorization"] == TOKEN
    assert request.headers["Content-Type"] == "application/json"
    assert json.loads(request.body) == {
        "mobile": "13800138000",
        "template_id": 12,
        "vars": "张三|https://e.example/x?a=1",
    }


def test_it_sends_a_form_body_when_asked(mock, client):
    mock.post(
        URL,
        json=answer(
            {"message_id": 1, "mobile": "13800138000"},
            {"message_id": 2, "mobile": "+8613900139000"},
        ),
    )

    client.send(12, ["13800138000", "+8613900139000"], ["张三", "a&b=c"], form=True)

    request = mock.calls[0].request
    assert request.method == "POST"
    assert request.url == URL
    assert request.headers["Authorization"] == TOKEN
    assert request.headers["Content-Type"] == "application/x-www-form-urlencoded"
    body = request.body if isinstance(request.body, str) else request.body.decode()
    assert parse_qs(body, strict_parsing=True) == {
        "mobile": ["13800138000,+8613900139000"],
        "template_id": ["12"],
        "vars": ["张三|a&b=c"],
    }


def test_it_leaves_out_vars_when_there_are_no_values(mock, client):
    mock.post(URL, json=answer({"message_id": 1, "mobile": "13800138000"}))
    client.send(12, ["13800138000"])
    assert json.loads(mock.calls[0].request.body) == {"mobile": "13800138000", "template_id": 12}


def test_it_keeps_empty_values_in_their_position(mock, client):
    mock.post(URL, json=answer({"message_id": 1, "mobile": "13800138000"}))
    client.send(12, ["13800138000"], ["a", "", "c"])
    assert json.loads(mock.calls[0].request.body)["vars"] == "a||c"


def test_it_returns_one_result_per_number_in_order(mock, client):
    mock.post(
        URL,
        json=answer(
            {"message_id": 501, "mobile": "13800138000"},
            {"error_code": "ILLEGAL_MOBILE", "mobile": "12345"},
            {"error_code": "MOBILE_LIMIT", "mobile": "13900139000"},
        ),
    )

    results = client.send(12, ["13800138000", "12345", "13900139000"])

    assert results == [
        SendResult(mobile="13800138000", message_id=501),
        SendResult(mobile="12345", error_code="ILLEGAL_MOBILE"),
        SendResult(mobile="13900139000", error_code="MOBILE_LIMIT"),
    ]
    assert [result.accepted for result in results] == [True, False, False]


def test_a_send_result_cannot_be_both_accepted_and_rejected():
    with pytest.raises(ValueError):
        SendResult(mobile="13800138000", message_id=1, error_code="ILLEGAL_MOBILE")
    with pytest.raises(ValueError):
        SendResult(mobile="13800138000")


def test_it_refuses_an_answer_with_fewer_results_than_numbers(mock, client):
    mock.post(URL, json=answer({"message_id": 1, "mobile": "13800138000"}))
    with pytest.raises(SmsResponseError, match="2 numbers submitted but 1 results"):
        client.send(12, ["13800138000", "13900139000"])


@pytest.mark.parametrize(
    "item",
    [
        {"mobile": "13800138000"},
        {"mobile": "13800138000", "message_id": 1, "error_code": "ILLEGAL_MOBILE"},
        {"mobile": "13800138000", "message_id": "1"},
        {"message_id": 1},
    ],
)
def test_it_refuses_a_result_item_that_is_neither_accepted_nor_rejected(mock, client, item):
    mock.post(URL, json=answer(item))
    with pytest.raises(SmsResponseError):
        client.send(12, ["13800138000"])


def test_it_refuses_an_answer_without_message_ids(mock, client):
    mock.post(URL, json={"messages": []})
    with pytest.raises(SmsResponseError, match="'message_ids'"):
        client.send(12, ["13800138000"])


def test_it_raises_a_refusal_of_the_whole_call(mock, client):
    mock.post(URL, json={"error_code": "TEMPLATE_AUDITING", "message": "wait"}, status=409)
    with pytest.raises(TemplateAuditingError):
        client.send(12, ["13800138000"])


def test_it_raises_the_providers_limit_on_numbers(mock, client):
    mock.post(URL, json={"error_code": "MOBILE_LIMIT", "message": "1000 max"}, status=409)
    with pytest.raises(MobileLimitError):
        client.send(12, ["13800138000"])


def test_it_accepts_1000_numbers_in_one_call(mock, client):
    numbers = [f"138{index:08d}" for index in range(1000)]
    mock.post(URL, json=answer(*({"message_id": i, "mobile": n} for i, n in enumerate(numbers))))
    assert len(client.send(12, numbers)) == 1000


@pytest.mark.parametrize(
    ("mobiles", "error"),
    [
        ([], ValueError),
        ([f"138{index:08d}" for index in range(1001)], ValueError),
        (["13800138000,13900139000"], ValueError),
        ([""], ValueError),
        ("13800138000", TypeError),
    ],
)
def test_it_refuses_bad_numbers_before_any_request(mock, client, mobiles, error):
    with pytest.raises(error):
        client.send(12, mobiles)
    assert len(mock.calls) == 0


@pytest.mark.parametrize(("values", "error"), [(["a|b"], ValueError), ("ab", TypeError)])
def test_it_refuses_values_it_cannot_encode_before_any_request(mock, client, values, error):
    with pytest.raises(error):
        client.send(12, ["13800138000"], values)
    assert len(mock.calls) == 0


@pytest.mark.parametrize("bad_id", [0, "12", True])
def test_it_refuses_a_bad_template_id_before_any_request(mock, client, bad_id):
    with pytest.raises(ValueError, match="template_id"):
        client.send(bad_id, ["13800138000"])
    assert len(mock.calls) == 0
