"""The dashboard figures hook and the demo data (idempotent, published to the sandbox)."""

from __future__ import annotations

import io
from typing import Any

import pytest

from delivery import dashboard, demo, services
from delivery.models import ImageVersion, PublishedConfig, PublishStatus, RuleSet
from tests.delivery.conftest import Edge

pytestmark = pytest.mark.django_db


def test_figures_for_an_empty_app(manager: Any, domain: Any) -> None:
    assert {f.label: f.value for f in dashboard.figures(manager)} == {
        "Domain": "cdn.example.com", "Rule sets": "0", "Last publish": "never",
        "Purges today": "0 (0 URLs)"}


def test_the_tile_says_there_is_no_domain_yet(manager: Any) -> None:
    assert {f.label: f.value for f in dashboard.figures(manager)} == {"Domain": "none yet"}
    chart = dashboard.chart(manager)
    assert chart is not None and set(chart.values) == {0}


def test_figures_are_empty_for_staff_without_access(make_user: Any) -> None:
    assert dashboard.figures(make_user("sms", "SMS operators")) == []


def test_demo_data_is_published_and_loading_twice_changes_nothing(edge: Edge,
                                                                  manager: Any) -> None:
    out = io.StringIO()
    demo.load(out)
    assert "published to provider console for 127.0.0.1" in out.getvalue()
    config = edge.config()
    assert config["versions"] == {"thumb": "/fw/200", "webp": "/fw/600/format/webp"}
    assert len(config["rules"]) == len(demo.RULES)
    demo.load(io.StringIO())
    assert RuleSet.objects.count() == 1
    assert ImageVersion.objects.count() == 2
    assert PublishedConfig.objects.filter(status=PublishStatus.OK).count() == 1  # not again
    services.request_manual_purge([f"{edge.base_url}/a.jpg"], manager)
    figures = {f.label: f.value for f in dashboard.figures(manager)}
    assert figures["Rule sets"] == "1"
    assert figures["Purges today"] == "1 (1 URLs)"
    assert figures["Last publish"] != "never"


def test_demo_without_a_sandbox_says_why(settings: Any, domain: Any) -> None:
    settings.PROVIDER["delivery"] = {"delivery_url": None, "purge_url": None,
                                     "token_secret": None}
    settings.PROVIDER["console"] = {"console_url": None, "username": None, "password": None}
    out = io.StringIO()
    demo.load(out)
    assert "not published: console: set console_url" in out.getvalue()


def test_demo_without_any_domain_says_why(settings: Any) -> None:
    out = io.StringIO()
    demo.load(out)
    assert "no demo data: storage: set STORAGE_BUCKET" in out.getvalue()
