"""The daily reconciliation report: our orders, the provider's answers and the balance movement
compared, every discrepancy listed; a consistent day lists none."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.topup.conftest import CMCC_NUMBER, CTCC_NUMBER, CUCC_NUMBER
from topup import services
from topup.models import (
    BalanceSnapshot,
    DiscrepancyKind,
    Order,
    OrderSource,
    OrderState,
    ReconciliationReport,
    SnapshotSource,
)
from topup.services.reports import day_bounds

pytestmark = pytest.mark.django_db


def place(mobile: str, code: str) -> Order:
    order = services.place_order(services.OrderRequest(mobile=mobile, product_code=code),
                                 requested_by=None, source=OrderSource.SINGLE)
    services.submit_order(order.pk)
    return order


@pytest.fixture
def start_snapshot(topup_sandbox, products) -> BalanceSnapshot:
    """The balance as the scheduled job recorded it just before the day began."""
    snapshot = services.take_snapshot(SnapshotSource.SCHEDULE)
    start, _end = day_bounds(timezone.localdate())
    BalanceSnapshot.objects.filter(pk=snapshot.pk).update(taken_at=start - timedelta(minutes=3))
    return snapshot


def kinds(report) -> list[str]:
    return sorted(report.discrepancies.values_list("kind", flat=True))


def test_a_consistent_day_has_no_discrepancy(topup_sandbox, start_snapshot):
    topup_sandbox.rule(CTCC_NUMBER, outcome="fail")
    ok, failed = place(CMCC_NUMBER, "CMCC_10"), place(CTCC_NUMBER, "CTCC_10")
    topup_sandbox.advance(10)
    report = services.build_report(timezone.localdate())
    assert kinds(report) == []
    assert (report.order_count, report.success_count, report.failed_count) == (2, 1, 1)
    assert report.queried_count == 2  # both were still open: asked once more, now final
    assert report.spent == Decimal("2.85")
    assert report.balance_start == Decimal("1000.00")
    assert report.balance_end == Decimal("997.15")
    assert report.expected_movement == Decimal("-2.85") == report.balance_movement
    assert {o.state for o in Order.objects.filter(pk__in=[ok.pk, failed.pk])} == {
        OrderState.SUCCESS, OrderState.FAILED}


def test_an_order_still_open_is_listed(topup_sandbox, start_snapshot):
    topup_sandbox.settings(progress_delay_s=3600)
    order = place(CMCC_NUMBER, "CMCC_10")
    report = services.build_report(timezone.localdate())
    item = report.discrepancies.get(kind=DiscrepancyKind.NOT_FINAL)
    assert item.order == Order.objects.get(pk=order.pk) and item.ours == OrderState.PENDING


def test_a_price_that_differs_from_the_provider_shows_in_the_balance(topup_sandbox,
                                                                     start_snapshot, products):
    products["CUCC_20"].price = Decimal("3.00")  # the provider charges 2.85
    products["CUCC_20"].save()
    place(CUCC_NUMBER, "CUCC_20")
    topup_sandbox.advance(10)
    report = services.build_report(timezone.localdate())
    item = report.discrepancies.get(kind=DiscrepancyKind.BALANCE)
    assert (item.ours, item.theirs) == ("-3.00", "-2.85")


def test_an_order_settled_by_a_person_is_checked_against_the_provider(
        topup_sandbox, start_snapshot, operator):
    topup_sandbox.rule(CMCC_NUMBER, outcome="manual")
    order = place(CMCC_NUMBER, "CMCC_10")
    topup_sandbox.advance(10)
    services.check_order(order.pk)
    services.confirm_manual(order.pk, "success", "Provider support confirmed by phone",
                            operator)
    report = services.build_report(timezone.localdate())
    found = kinds(report)
    assert DiscrepancyKind.MANUAL in found
    mismatch = report.discrepancies.get(kind=DiscrepancyKind.STATE_MISMATCH)
    assert mismatch.ours == OrderState.SUCCESS and mismatch.theirs.startswith("511")


def test_bad_and_unknown_callbacks_of_the_day_are_listed(topup_sandbox, start_snapshot):
    place(CMCC_NUMBER, "CMCC_10")  # gives us a token to sign with
    from topup.models import TokenState

    token = TokenState.objects.get().token

    def signed(custno: str, token: str) -> bytes:
        text = f"code200custno{custno}infookordernoX1token{token}"
        sign = hashlib.sha1(text.encode()).hexdigest()
        return json.dumps({"code": "200", "custno": custno, "info": "ok", "orderno": "X1",
                           "sign": sign}).encode()

    client = Client()
    client.post("/api/topup/callback/", signed("STRANGER1", token), content_type="application/json")
    client.post("/api/topup/callback/", signed("FORGED1", "WrongToken000000"),
                content_type="application/json")
    topup_sandbox.advance(10)
    report = services.build_report(timezone.localdate())
    assert DiscrepancyKind.UNKNOWN_CUSTNO in kinds(report)
    assert DiscrepancyKind.INVALID_SIGN in kinds(report)


def test_without_balance_snapshots_the_report_says_so(topup_sandbox, products):
    place(CMCC_NUMBER, "CMCC_10")
    topup_sandbox.advance(10)
    report = services.build_report(timezone.localdate() - timedelta(days=1))
    assert kinds(report) == [DiscrepancyKind.NO_BALANCE]
    assert report.order_count == 0


def test_remaking_a_report_replaces_it(topup_sandbox, start_snapshot):
    topup_sandbox.settings(progress_delay_s=3600)
    place(CMCC_NUMBER, "CMCC_10")
    first = services.build_report(timezone.localdate())
    assert kinds(first) == [DiscrepancyKind.NOT_FINAL]
    topup_sandbox.advance(3700)
    second = services.build_report(timezone.localdate())
    assert second.pk == first.pk and kinds(second) == []


def test_staff_make_and_read_a_report_auditors_only_read(topup_sandbox, start_snapshot, operator,
                                                          auditor):
    day = timezone.localdate().isoformat()
    client = Client()
    client.force_login(auditor)
    assert client.post(reverse("topup:report_run"), {"day": day}).status_code == 403
    client.force_login(operator)
    response = client.post(reverse("topup:report_run"), {"day": day})
    assert response.status_code == 302 and response["Location"].endswith(f"/reports/{day}/")
    client.force_login(auditor)
    page = client.get(reverse("topup:report_detail", args=[day]))
    assert page.status_code == 200 and "discrepancies" in page.content.decode()
    assert client.get(reverse("topup:report_detail", args=["2026-13-45"])).status_code == 404
    client.force_login(operator)
    future = (timezone.localdate() + timedelta(days=2)).isoformat()
    refused = client.post(reverse("topup:report_run"), {"day": future}, follow=True)
    assert "only cover a day that has begun" in refused.content.decode()
    assert not ReconciliationReport.objects.filter(day=future).exists()
