"""The balance chart in a real browser: every label inside the picture, and the balance and
the available balance both visible when nothing is frozen (the two lines lie on each other)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from topup.models import BalanceSnapshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def history() -> None:
    start = timezone.now() - timedelta(days=6)
    for day, balance in enumerate(("1234567.89", "1210000.00", "1190000.50", "1175000.00")):
        snapshot = BalanceSnapshot.objects.create(
            balance=Decimal(balance), freeze=Decimal("0"), avail_balance=Decimal(balance),
            source="staff")
        BalanceSnapshot.objects.filter(pk=snapshot.pk).update(
            taken_at=start + timedelta(days=day * 2))


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_every_label_is_inside_the_chart(page, live_server, staff_login, history, language):
    page.set_extra_http_headers({"Accept-Language": language})
    staff_login("op", groups=("Top-up operators",))
    page.goto(f"{live_server.url}/topup/balance/?days=7")

    outside = page.eval_on_selector(".topup-chart", """svg => {
        const view = svg.viewBox.baseVal;
        return [...svg.querySelectorAll("text")].map(t => [t.textContent, t.getBBox()])
          .filter(([, b]) => b.x < view.x || b.y < view.y || b.x + b.width > view.width
                             || b.y + b.height > view.height)
          .map(([text, b]) => `${text}: ${b.x},${b.y} ${b.width}x${b.height}`);
    }""")
    assert outside == []


def test_balance_and_available_are_both_visible_and_told_apart(page, live_server, staff_login,
                                                               history):
    staff_login("op", groups=("Top-up operators",))
    page.goto(f"{live_server.url}/topup/balance/?days=7")

    styles = page.eval_on_selector_all(".topup-chart .series polyline", """lines => lines.map(
        l => { const s = getComputedStyle(l);
               return [l.parentNode.classList[1], s.strokeWidth, s.strokeDasharray,
                       s.stroke]; })""")
    by_series = {name: (width, dashes, colour) for name, width, dashes, colour in styles}
    assert set(by_series) == {"balance", "available"}
    balance, available = by_series["balance"], by_series["available"]
    # The balance is wider than the dashed line drawn over it: its edges show on both sides.
    assert float(balance[0].rstrip("px")) > float(available[0].rstrip("px"))
    assert available[1] not in ("none", "") and balance[1] in ("none", "")
    assert balance[2] != available[2]
    legend = page.locator(".topup-chart .legend").all_text_contents()
    assert legend == ["Balance", "Available"]
