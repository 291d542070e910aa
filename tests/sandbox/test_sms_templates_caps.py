"""Per-channel caps: 40 templates (TEMPLATE_LIMIT) and 20 signatures (ILLEGAL_SIGNATURE)."""

import pytest

from tests.sandbox.test_sms_support import SmsApi, error_of


@pytest.fixture
def api(sandbox):
    return SmsApi(sandbox)


def fill_channel(api, report_type, count):
    return [api.created_template(report_type=report_type, title=f"模板{index}")
            for index in range(count)]


def test_the_41st_template_of_a_channel_is_refused(api):
    fill_channel(api, "general", 40)
    response = api.create_template(report_type="general")
    assert error_of(response) == (409, "TEMPLATE_LIMIT")


def test_a_full_channel_does_not_block_the_other(api):
    fill_channel(api, "general", 40)
    assert api.create_template(report_type="vip").status_code == 201


def test_deleting_a_template_makes_room(api):
    templates = fill_channel(api, "vip", 40)
    assert api.request("DELETE", f"/api/templates/{templates[0]['id']}").status_code == 204
    assert api.create_template(report_type="vip").status_code == 201


def test_a_21st_signature_in_a_channel_is_refused(api):
    for index in range(20):
        api.created_template(temp_sign=f"签名{index:02d}")
    response = api.create_template(temp_sign="新的签名")
    assert error_of(response) == (409, "ILLEGAL_SIGNATURE")
    assert "20" in response.json()["message"]


def test_a_known_signature_is_still_accepted_when_twenty_exist(api):
    for index in range(20):
        api.created_template(temp_sign=f"签名{index:02d}")
    assert api.create_template(temp_sign="签名07").status_code == 201


def test_signatures_are_counted_per_channel(api):
    for index in range(20):
        api.created_template(temp_sign=f"签名{index:02d}", report_type="general")
    assert api.create_template(temp_sign="新的签名", report_type="vip").status_code == 201


def test_editing_in_a_21st_signature_is_refused(api):
    templates = [api.created_template(temp_sign=f"签名{index:02d}") for index in range(20)]
    extra = api.created_template(temp_sign="签名00")
    assert api.edit(templates[5]["id"], temp_sign="另一个").status_code == 200  # swaps one
    response = api.edit(extra["id"], temp_sign="第二十一")
    assert error_of(response) == (409, "ILLEGAL_SIGNATURE")
