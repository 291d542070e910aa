"""The sandbox's working-day review clock (control `review_clock: working_days`): vip
templates are approved 3 hours of working time after submission; general ones 5 working days
after, or 3 hours when their signature is filed (control `POST /sms/signatures`). Working time
runs Monday to Friday in Asia/Shanghai: a weekend stops the clock."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from sandbox.sms.working_time import add_working_time
from tests.sandbox.test_sms_support import SmsApi

SHANGHAI = timezone(timedelta(hours=8))
HOUR = 3600


def at(day: int, hour: int) -> float:
    return datetime(2026, 11, day, hour, tzinfo=SHANGHAI).timestamp()  # the 23rd: a Monday


@pytest.mark.parametrize(("start", "seconds", "end"), [
    (at(23, 10), 3 * HOUR, at(23, 13)),
    (at(27, 23), 3 * HOUR, at(30, 2)),  # Friday night into Monday
    (at(28, 10), 3 * HOUR, at(30, 3)),  # Saturday: from Monday's start
    (at(27, 23), 5 * 86_400, datetime(2026, 12, 4, 23, tzinfo=SHANGHAI).timestamp()),
])
def test_working_time_skips_weekends(start, seconds, end):
    assert add_working_time(start, seconds) == end


@pytest.fixture
def api(sandbox):
    api = SmsApi(sandbox)
    api.settings(auto_review=True, review_clock="working_days")
    return api


def status_of(api, template_id):
    return {t["id"]: t["status"] for t in api.templates().json()["templates"]}[template_id]


def test_vip_is_reviewed_in_hours_and_a_new_general_signature_in_days(api):
    vip = api.created_template(report_type="vip")
    general = api.created_template(report_type="general", temp_sign="新签名")
    api.sandbox.advance(52 * HOUR)  # 3 working hours, whatever day it is
    assert status_of(api, vip["id"]) == "success"
    assert status_of(api, general["id"]) == "review"
    api.sandbox.advance(6 * 86_400)  # 5 working days from any start are within 8 days
    assert status_of(api, general["id"]) == "success"


def test_a_filed_signature_makes_a_general_review_take_hours(api):
    response = api.sandbox.control("POST", "/sms/signatures", {"temp_sign": "已报备"})
    assert response.status_code == 200 and response.json()["signatures"] == ["已报备"]
    general = api.created_template(report_type="general", temp_sign="已报备")
    api.sandbox.advance(52 * HOUR)
    assert status_of(api, general["id"]) == "success"


def test_a_bad_review_clock_or_signature_names_the_field(api):
    bad_clock = api.sandbox.control("POST", "/sms/settings", {"review_clock": "weekly"})
    assert bad_clock.status_code == 400 and bad_clock.json()["field"] == "review_clock"
    bad_sign = api.sandbox.control("POST", "/sms/signatures", {"temp_sign": ""})
    assert bad_sign.status_code == 400 and bad_sign.json()["field"] == "temp_sign"
