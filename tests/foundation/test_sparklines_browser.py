"""In a real browser, in English and in Chinese (issue 29, finding 13): a line chart with one
reading draws a dot and says there is not enough data yet; every chart says its latest value
and its range as text beside it; chart dates use the pages' format (2026-11-25)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import timezone

from topup.models import BalanceSnapshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ONE_READING = {"en": "Not enough data yet: one reading, 1,234.50 on {day}.",
               "zh-hans": "数据尚不足：只有一个读数，{day} 为 1,234.50。"}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_one_reading_is_a_dot_with_its_value_in_words(page, live_server, staff_login,
                                                      language):
    BalanceSnapshot.objects.create(balance=Decimal("1234.50"), freeze=Decimal("0"),
                                   avail_balance=Decimal("1234.50"), source="staff")
    staff_login("op", groups=("Top-up operators",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/")
    today = f"{timezone.localdate():%Y-%m-%d}"
    chart = page.locator("#tile-topup .sparkline")
    dot = chart.locator("svg circle.dot")
    assert dot.count() == 1
    box = dot.bounding_box()
    assert box is not None and box["width"] > 0 and box["height"] > 0
    facts = chart.locator(".sparkline-facts").inner_text()
    expected = ONE_READING[language].format(day=today)
    assert facts.replace("\u00a0", " ") in (expected, expected.replace("1,234.50", "1234.50"))
    titles = chart.locator("svg rect title").all_text_contents()
    assert titles[-1].startswith(today)
