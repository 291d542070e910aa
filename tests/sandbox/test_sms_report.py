"""GET /api/messages: newest first, pages (default 1 x 20, at most 100), filters by Shanghai
day, number and status, and `total` of the filtered records."""

import pytest

from tests.sandbox.test_sms_support import NUMBER, OTHER_NUMBER, SmsApi, error_of, shanghai_day


@pytest.fixture
def api(sandbox):
    api = SmsApi(sandbox)
    api.settings(delivery_delay_s=60, failure_rate=0)
    return api


@pytest.fixture
def template(api):
    return api.approved_template(type="marketing", content="活动{$var1}，退订回T")


def send_numbered(api, template, count, mobile=NUMBER):
    """Send `count` messages one call at a time, so each has its own creation moment."""
    return [api.sent_items(mobile, template["id"], str(index))[0]["message_id"]
            for index in range(count)]


def page(api, **query):
    response = api.report(**query)
    assert response.status_code == 200, response.text
    body = response.json()
    return [message["id"] for message in body["messages"]], body["total"]


def test_an_empty_report(api):
    assert api.report().json() == {"messages": [], "total": 0}


def test_it_lists_newest_first_twenty_per_page_by_default(api, template):
    sent = send_numbered(api, template, 25)
    newest_first = list(reversed(sent))
    assert page(api) == (newest_first[:20], 25)
    assert page(api, page=2) == (newest_first[20:], 25)
    assert page(api, page=3) == ([], 25)


def test_it_pages_by_per_page(api, template):
    sent = list(reversed(send_numbered(api, template, 7)))
    assert page(api, per_page=3, page=1) == (sent[:3], 7)
    assert page(api, per_page=3, page=3) == (sent[6:], 7)
    assert page(api, per_page=100) == (sent, 7)


def test_a_record_has_every_field(api, template):
    [item] = api.sent_items(NUMBER, template["id"], "满减")
    api.sandbox.advance(60)
    [message] = api.report().json()["messages"]
    assert set(message) == {"id", "template_id", "report_type", "title", "type", "content",
                            "temp_sign", "mobile", "sent_at", "created_at", "status",
                            "quantity", "owner"}
    assert (message["id"], message["template_id"], message["report_type"], message["title"],
            message["type"], message["temp_sign"], message["mobile"], message["status"],
            message["quantity"]) == (item["message_id"], template["id"], "general", "验证码",
                                     "marketing", "落子時", NUMBER, "success", 1)
    assert message["content"] == "活动满减，退订回T【落子時】"


def test_a_record_outlives_its_template(api, template):
    send_numbered(api, template, 1)
    api.request("DELETE", f"/api/templates/{template['id']}")
    [message] = api.messages()
    assert message["template_id"] == template["id"]
    assert message["title"] == template["title"]


def test_it_filters_by_mobile_in_any_spelling(api, template):
    mine = send_numbered(api, template, 2, NUMBER)
    send_numbered(api, template, 1, OTHER_NUMBER)
    assert page(api, mobile=f"+86{NUMBER}") == (list(reversed(mine)), 2)


def test_it_filters_by_status(api, template):
    api.force_outcome(OTHER_NUMBER, "failed")
    send_numbered(api, template, 1, NUMBER)
    failed = send_numbered(api, template, 1, OTHER_NUMBER)
    api.sandbox.advance(60)
    waiting = send_numbered(api, template, 1, NUMBER)
    assert page(api, status="failed") == (failed, 1)
    assert page(api, status="processing") == (waiting, 1)
    assert page(api, status="success")[1] == 1


def test_it_filters_by_shanghai_day(api, template):
    first_day = shanghai_day(api.sandbox.now())
    earlier = send_numbered(api, template, 2)
    api.sandbox.advance(86_400)
    second_day = shanghai_day(api.sandbox.now())
    later = send_numbered(api, template, 1)
    assert page(api, date=first_day) == (list(reversed(earlier)), 2)
    assert page(api, date=second_day) == (later, 1)
    assert page(api, date="2000-01-01") == ([], 0)


def test_filters_combine(api, template):
    send_numbered(api, template, 2, NUMBER)
    other = send_numbered(api, template, 1, OTHER_NUMBER)
    today = shanghai_day(api.sandbox.now())
    assert page(api, date=today, mobile=OTHER_NUMBER, status="processing") == (other, 1)


@pytest.mark.parametrize(("name", "value"), [
    ("page", "0"), ("page", "two"), ("page", "-1"), ("per_page", "101"), ("per_page", "0"),
    ("per_page", "1.5"), ("date", "2024/01/01"), ("date", "2024-02-30"), ("date", "20240101"),
    ("status", "delivered"),
])
def test_it_refuses_a_bad_query_value(api, name, value):
    response = api.report(**{name: value})
    assert error_of(response) == (409, "ILLEGAL_PARAMER")
    assert name in response.json()["message"]


def test_it_refuses_a_mobile_filter_that_is_not_a_mobile_number(api):
    assert error_of(api.report(mobile="12345")) == (409, "ILLEGAL_MOBILE")
