"""Industry daily limit: 10 industry messages per number per Asia/Shanghai day; the 11th gets
an item with MOBILE_LIMIT while the rest of the call goes out."""

import pytest

from tests.sandbox.test_sms_support import NUMBER, OTHER_NUMBER, SmsApi, shanghai_day


@pytest.fixture
def api(sandbox):
    api = SmsApi(sandbox)
    api.settings(delivery_delay_s=60, auto_review=False)
    return api


def codes(items):
    return [item.get("error_code") for item in items]


def test_the_11th_industry_message_in_one_call_is_refused_on_its_item(api):
    template = api.approved_template(type="industry")
    items = api.sent_items(",".join([NUMBER] * 11 + [OTHER_NUMBER]), template["id"])
    assert codes(items) == [None] * 10 + ["MOBILE_LIMIT", None]
    assert items[10] == {"error_code": "MOBILE_LIMIT", "mobile": NUMBER}


def test_the_limit_counts_messages_of_earlier_calls_that_day(api):
    template = api.approved_template(type="industry")
    for _ in range(10):
        api.sent_items(NUMBER, template["id"])
    assert codes(api.sent_items(f"{OTHER_NUMBER},{NUMBER}", template["id"])) == \
        [None, "MOBILE_LIMIT"]


def test_the_limit_knows_a_number_in_any_spelling(api):
    template = api.approved_template(type="industry")
    api.sent_items(",".join([NUMBER] * 5 + [f"+86{NUMBER}"] * 5), template["id"])
    assert codes(api.sent_items(f"86{NUMBER}", template["id"])) == ["MOBILE_LIMIT"]


def test_failed_messages_count_towards_the_limit(api):
    api.force_outcome(NUMBER, "failed")
    template = api.approved_template(type="industry")
    api.sent_items(",".join([NUMBER] * 10), template["id"])
    api.sandbox.advance(60)
    assert codes(api.sent_items(NUMBER, template["id"])) == ["MOBILE_LIMIT"]


def test_marketing_messages_have_no_daily_limit(api):
    template = api.approved_template(type="marketing", content="限时优惠{$var1}，退订回T")
    assert codes(api.sent_items(",".join([NUMBER] * 12), template["id"])) == [None] * 12


def test_marketing_messages_do_not_use_up_the_industry_allowance(api):
    marketing = api.approved_template(type="marketing", content="限时优惠{$var1}，退订回T")
    industry = api.approved_template(type="industry")
    api.sent_items(",".join([NUMBER] * 10), marketing["id"])
    assert codes(api.sent_items(",".join([NUMBER] * 10), industry["id"])) == [None] * 10


def test_the_allowance_renews_on_the_next_shanghai_day(api):
    template = api.approved_template(type="industry")
    api.sent_items(",".join([NUMBER] * 10), template["id"])
    now = api.sandbox.now()
    # Jump to one minute after the next Shanghai midnight.
    seconds_into_day = (now + 8 * 3600) % 86_400
    api.sandbox.advance(86_400 - seconds_into_day + 60)
    assert shanghai_day(api.sandbox.now()) != shanghai_day(now)
    assert codes(api.sent_items(",".join([NUMBER] * 11), template["id"])) == \
        [None] * 10 + ["MOBILE_LIMIT"]
