"""Quota: the template's report_type picks the quota; units are deducted on success only;
a send needing more units than remain (minus what messages in progress hold) is refused."""

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.sandbox.test_sms_support import NUMBER, OTHER_NUMBER, SmsApi, error_of

THIRD_NUMBER = "13700137000"


@pytest.fixture
def api(sandbox):
    api = SmsApi(sandbox)
    api.settings(delivery_delay_s=60, failure_rate=0)
    return api


def owner(api):
    return api.messages()[0]["owner"]


def test_a_fresh_account_starts_with_both_quotas(api):
    settings = api.sandbox.control("GET", "/sms/settings").json()
    assert (settings["general"], settings["vip"]) == (1000, 1000)


def test_units_are_deducted_when_messages_succeed(api):
    template = api.approved_template()
    api.sent_items(f"{NUMBER},{OTHER_NUMBER}", template["id"])
    assert (owner(api)["general"], owner(api)["industry"]) == (1000, 0)
    api.sandbox.advance(60)
    assert owner(api) | {"id": 0} == {"id": 0, "name": "sandbox-demo", "general": 998,
                                      "vip": 1000, "industry": 2, "marketing": 0}


def test_failed_messages_cost_nothing(api):
    api.force_outcome(OTHER_NUMBER, "failed")
    template = api.approved_template()
    api.sent_items(f"{NUMBER},{OTHER_NUMBER}", template["id"])
    api.sandbox.advance(60)
    assert (owner(api)["general"], owner(api)["industry"]) == (999, 1)


def test_the_vip_channel_spends_the_vip_quota(api):
    template = api.approved_template(report_type="vip", type="marketing",
                                     content="会员专享{$var1}，退订回T")
    api.sent_items(NUMBER, template["id"], "好礼")
    api.sandbox.advance(60)
    assert (owner(api)["general"], owner(api)["vip"], owner(api)["marketing"]) == (1000, 999, 1)


@pytest.mark.parametrize(("length", "units"), [(70, 1), (71, 2), (134, 2), (135, 3), (350, 6)])
def test_a_message_costs_its_billing_units(api, length, units):
    template = api.approved_template(content="通知：{$var1}")  # 3 + vars + 落子時 3 + 【】 2
    api.sent_items(NUMBER, template["id"], "x" * (length - 8))
    assert api.messages()[0]["quantity"] == units
    api.sandbox.advance(60)
    assert owner(api)["general"] == 1000 - units


def test_a_send_needing_more_units_than_remain_is_refused_whole(api):
    api.settings(general=2)
    template = api.approved_template()
    response = api.send(f"{NUMBER},{OTHER_NUMBER},{THIRD_NUMBER}", template["id"], "1")
    assert error_of(response) == (409, "INSUFFICIENT_FUNDS")
    assert api.messages() == []


def test_rejected_numbers_need_no_units(api):
    api.settings(general=2)
    template = api.approved_template()
    items = api.sent_items(f"{NUMBER},123,{OTHER_NUMBER}", template["id"])
    assert [item.get("error_code") for item in items] == [None, "ILLEGAL_MOBILE", None]


def test_messages_in_progress_hold_their_units(api):
    api.settings(general=2)
    template = api.approved_template()
    api.sent_items(f"{NUMBER},{OTHER_NUMBER}", template["id"])
    assert error_of(api.send(THIRD_NUMBER, template["id"], "1")) == (409, "INSUFFICIENT_FUNDS")


def test_units_held_by_a_failed_message_come_back(api):
    api.settings(general=1)
    api.force_outcome(NUMBER, "failed")
    template = api.approved_template()
    api.sent_items(NUMBER, template["id"])
    api.sandbox.advance(60)
    assert api.send(OTHER_NUMBER, template["id"], "1").status_code == 200


def test_an_empty_quota_refuses_even_one_message(api):
    api.settings(vip=0)
    template = api.approved_template(report_type="vip")
    assert error_of(api.send(NUMBER, template["id"], "1")) == (409, "INSUFFICIENT_FUNDS")


def test_parallel_sends_never_spend_more_than_the_quota(api):
    api.settings(general=5)
    template = api.approved_template()
    numbers = [f"1370000{index:04d}" for index in range(12)]
    with ThreadPoolExecutor(max_workers=12) as pool:
        statuses = list(pool.map(lambda number: api.send(number, template["id"], "1").status_code,
                                 numbers))
    assert sorted(statuses) == [200] * 5 + [409] * 7
    assert len(api.messages()) == 5
