"""Delivery report: query parameters, message records, timestamps and unknown statuses."""

from datetime import UTC, date, datetime

import pytest
import responses

from sms.client import MESSAGE_STATUSES, Owner, SmsClient
from sms.errors import SmsResponseError

BASE = "https://sms.example.test"
TOKEN = "tok-3P83lWwkoV15"
URL = f"{BASE}/api/messages"
MESSAGE_JSON = {
    "id": 9001,
    "template_id": 42,
    "report_type": "general",
    "title": "验证码",
    "type": "industry",
    "content": "hello，hello【落子時】",
    "temp_sign": "落子時",
    "mobile": "13800138000",
    "sent_at": "2017-04-07T08:47:38.123Z",
    "created_at": "2017-04-07T08:47:37.000Z",
    "status": "success",
    "quantity": 1,
    "owner": {"id": 7, "name": "m", "general": 99, "vip": 0, "industry": 5, "marketing": 0},
}


@pytest.fixture
def mock():
    with responses.RequestsMock() as rsps:
        yield rsps


@pytest.fixture
def client():
    return SmsClient(BASE, TOKEN)


def reply(mock, *messages, total=None):
    count = len(messages) if total is None else total
    mock.get(URL, json={"messages": list(messages), "total": count})


def test_it_asks_for_the_report_without_parameters_by_default(mock, client):
    reply(mock)
    client.report()
    request = mock.calls[0].request
    assert (request.method, request.url) == ("GET", URL)
    assert request.headers["Authorization"] == TOKEN


def test_it_sends_every_filter_with_the_day_as_yyyy_mm_dd(mock, client):
    reply(mock)
    client.report(
        date=date(2024, 5, 1), mobile="13800138000", status="failed", page=3, per_page=100
    )
    assert mock.calls[0].request.url == (
        f"{URL}?date=2024-05-01&mobile=13800138000&status=failed&page=3&per_page=100"
    )


def test_it_passes_a_status_it_does_not_know_verbatim(mock, client):
    reply(mock)
    client.report(status="rejected")
    assert mock.calls[0].request.url == f"{URL}?status=rejected"


def test_it_reads_messages_and_the_total(mock, client):
    reply(mock, MESSAGE_JSON, total=57)

    report = client.report(page=1)

    assert report.total == 57
    (message,) = report.messages
    assert message.id == 9001
    assert message.template_id == 42
    assert message.content == "hello，hello【落子時】"
    assert message.quantity == 1
    assert message.status == "success"
    assert message.status_known
    assert message.owner == Owner(id=7, name="m", general=99, vip=0, industry=5, marketing=0)


def test_it_reads_timestamps_as_aware_utc_with_milliseconds(mock, client):
    reply(mock, MESSAGE_JSON)
    (message,) = client.report().messages
    assert message.sent_at == datetime(2017, 4, 7, 8, 47, 38, 123000, tzinfo=UTC)
    assert message.created_at == datetime(2017, 4, 7, 8, 47, 37, tzinfo=UTC)
    assert message.created_at.tzinfo is UTC


def test_it_reads_a_null_sent_at_as_not_yet_sent(mock, client):
    reply(mock, {**MESSAGE_JSON, "sent_at": None, "status": "processing"})
    (message,) = client.report().messages
    assert message.sent_at is None


def test_it_converts_a_timestamp_with_another_offset_to_utc(mock, client):
    reply(mock, {**MESSAGE_JSON, "created_at": "2017-04-07T16:47:37.000+08:00"})
    (message,) = client.report().messages
    assert message.created_at == datetime(2017, 4, 7, 8, 47, 37, tzinfo=UTC)
    assert message.created_at.utcoffset().total_seconds() == 0


def test_it_reads_a_timestamp_without_offset_as_utc(mock, client):
    reply(mock, {**MESSAGE_JSON, "created_at": "2017-04-07T08:47:37.000"})
    (message,) = client.report().messages
    assert message.created_at == datetime(2017, 4, 7, 8, 47, 37, tzinfo=UTC)


@pytest.mark.parametrize("status", ["rejected_by_carrier", "", "SUCCESS"])
def test_it_keeps_an_unknown_message_status_verbatim(mock, client, status):
    reply(mock, {**MESSAGE_JSON, "status": status})
    (message,) = client.report().messages
    assert message.status == status
    assert not message.status_known


def test_the_known_message_statuses_are_those_of_decisions():
    assert frozenset({"processing", "success", "failed"}) == MESSAGE_STATUSES


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("created_at", "07/04/2017"),
        ("created_at", None),
        ("sent_at", 1491554857),
        ("quantity", "1"),
        ("quantity", False),
        ("status", None),
    ],
)
def test_it_refuses_a_message_with_a_wrong_field(mock, client, field, value):
    reply(mock, {**MESSAGE_JSON, field: value})
    with pytest.raises(SmsResponseError, match=field):
        client.report()


def test_it_refuses_a_report_without_total(mock, client):
    mock.get(URL, json={"messages": []})
    with pytest.raises(SmsResponseError, match="'total'"):
        client.report()


def test_it_refuses_a_datetime_as_the_day(mock, client):
    with pytest.raises(TypeError, match="Asia/Shanghai"):
        client.report(date=datetime(2024, 5, 1, 23, 30, tzinfo=UTC))
    assert len(mock.calls) == 0


def test_it_refuses_a_day_given_as_text(mock, client):
    with pytest.raises(TypeError):
        client.report(date="2024-05-01")
    assert len(mock.calls) == 0


@pytest.mark.parametrize(
    "arguments",
    [{"page": 0}, {"page": -1}, {"per_page": 0}, {"per_page": 101}, {"page": "2"}, {"page": True}],
)
def test_it_refuses_bad_paging_before_any_request(mock, client, arguments):
    with pytest.raises(ValueError):
        client.report(**arguments)
    assert len(mock.calls) == 0
