"""The delivery tile's figures link to the pages that list what they count, and its chart
shows the purge requests sent on each of the last 14 days."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from console.models import Domain
from console.services import default_domain
from delivery import dashboard
from delivery.models import PurgeRequest, PurgeStatus

pytestmark = pytest.mark.django_db


def purge(days_ago: int, status: str = PurgeStatus.SENT, domain: Any = None) -> None:
    domain = domain or default_domain()
    request = PurgeRequest.objects.create(
        domain=domain, source="manual", urls=f"http://{domain.name}/x", url_count=1,
        status=status, attempted_at=timezone.now() - timedelta(days=days_ago))
    request.domains.set([domain])


def test_the_chart_counts_purges_sent_per_day(manager: Any, domain: Any) -> None:
    for days_ago in (0, 0, 3, 20):
        purge(days_ago)
    purge(0, PurgeStatus.FAILED)  # not sent: not counted, as in "Purges today"
    other = Domain.objects.create(service=domain.service, name="other.example.com")
    purge(0, domain=other)  # another domain's: counted on its own tile only

    chart = dashboard.chart(manager)

    assert chart is not None and chart.kind == "bars"
    expected = [0.0] * 14
    expected[-4], expected[-1] = 1, 2
    assert list(chart.values) == expected
    assert {f.label: f.value for f in dashboard.figures(manager)}["Purges today"].startswith("2 ")


def test_every_figure_links_to_a_page_that_opens(manager: Any, domain: Any) -> None:
    client = Client()
    client.force_login(manager)
    figures = dashboard.figures(manager)
    assert [figure.url for figure in figures] == [
        "/delivery/", "/delivery/rules/", "/delivery/publish/", "/delivery/purge/#purge-history"]
    for figure in figures:
        assert client.get(figure.url).status_code == 200, figure.label
    assert 'id="purge-history"' in client.get("/delivery/purge/").content.decode()


def test_the_chart_is_not_built_for_staff_without_access(make_user: Any) -> None:
    assert dashboard.chart(make_user("nobody")) is None
