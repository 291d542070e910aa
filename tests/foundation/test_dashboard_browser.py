"""The dashboard in a real browser at the standard desktop width (1280 px), in English and in
Chinese: every tile with a 14-day chart shows it, named and described for screen readers in
the reader's language, and every label, value and caption of the tiles fits on one line."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from tests.services_support import some_service

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHARTED = ("sms", "topup", "storage", "delivery")

# For every label, value and caption of the tiles: how many lines its text takes (the number
# of line boxes of a range over it), and whether it overflows its box.
MEASURE = """() => Array.from(document.querySelectorAll(
    '.tile h2, .tile .figures dt, .tile .figures dd, .tile figcaption')).map(el => {
  const range = document.createRange();
  range.selectNodeContents(el);
  const tops = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
  return {text: el.textContent.trim(), lines: tops.size,
          overflows: el.scrollWidth > el.clientWidth + 1};
})"""


@pytest.fixture
def some_history(db):
    from delivery.models import PurgeRequest
    from sms.models import Quota
    from sms.services.counts import forget_today
    from storage.models import UsageSnapshot
    from topup.models import BalanceSnapshot

    # Wide values, as a large account has them: the labels must fit beside them.
    Quota.objects.create(owner_id=1, name="Demo", general=12_345_678, vip=9_876_543,
                         industry=0, marketing=0, fetched_at=timezone.now())
    forget_today()  # cached counts of another test's messages would show
    today = timezone.localdate()
    for days_ago in (9, 3, 0):
        snapshot = BalanceSnapshot.objects.create(
            balance=Decimal("1234567.89"), freeze=Decimal("0"),
            avail_balance=Decimal("1234567.89") - days_ago, source="schedule")
        BalanceSnapshot.objects.filter(pk=snapshot.pk).update(
            taken_at=timezone.now() - timedelta(days=days_ago))
        UsageSnapshot.objects.create(service=some_service(),
                                     day=today - timedelta(days=days_ago),
                                     used_bytes=10**9 * (10 - days_ago), taken_at=timezone.now())
        PurgeRequest.objects.create(source="manual", urls="https://a.example/x", url_count=1,
                                    status="sent",
                                    attempted_at=timezone.now() - timedelta(days=days_ago))


def check_dashboard(page, language: str) -> None:
    for service in CHARTED:
        chart = page.locator(f"#tile-{service} figure.sparkline svg[role=img]")
        assert chart.count() == 1, service
        assert chart.is_visible()
        box = chart.bounding_box()
        assert box is not None and box["width"] > 200 and box["height"] > 20
        title = page.locator(f"#chart-{service}-title")
        desc = page.locator(f"#chart-{service}-desc")
        assert title.text_content() and desc.text_content()
        assert chart.get_attribute("aria-labelledby") == (
            f"chart-{service}-title chart-{service}-desc")
        if language == "zh-hans":
            assert "近 14 天" in page.locator(f"#tile-{service} figcaption").inner_text()
            assert "最低" in desc.text_content() or "没有记录" in desc.text_content()
        else:
            assert "last 14 days" in page.locator(f"#tile-{service} figcaption").inner_text()
            assert "lowest" in desc.text_content() or "nothing recorded" in desc.text_content()
    assert page.locator("#tile-media figure.sparkline").count() == 0  # no chart asked for

    measured = page.evaluate(MEASURE)
    assert len(measured) > 20
    wrapped = [item for item in measured if item["lines"] > 1 or item["overflows"]]
    assert wrapped == [], f"{language}: not on one line: {wrapped}"


def test_the_charts_are_shown_labelled_and_every_label_fits_on_one_line_in_english(
    page, live_server, staff_login, some_history
):
    staff_login("root", superuser=True)
    check_dashboard(page, "en")
    assert page.locator("#chart-topup-title").text_content() == "Available balance (yuan)"


def test_the_charts_are_shown_labelled_and_every_label_fits_on_one_line_in_chinese(
    page, live_server, staff_login, some_history
):
    staff_login("root", superuser=True)
    with page.expect_navigation():
        page.select_option("#language-select", "zh-hans")
    check_dashboard(page, "zh-hans")
    assert page.locator("#chart-sms-title").text_content() == "每日发送短信数"


def test_a_figure_opens_the_filtered_list_behind_it(page, live_server, staff_login):
    staff_login("root", superuser=True)
    # "Failed today", found by its label: the tile's rows grow (the next scheduled campaign
    # came after it), so its position proves nothing.
    page.click("#tile-sms .figures dt:text-is('Failed today') + dd a")
    page.wait_for_url("**/sms/report/?*")
    assert "status=failed" in page.url
    assert page.locator("select[name=status]").input_value() == "failed"
