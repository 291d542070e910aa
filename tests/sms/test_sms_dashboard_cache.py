"""Today's figures (dashboard tile and SMS home page) are counted at most once a minute, not
on every page load."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from sms import dashboard, services

pytestmark = pytest.mark.django_db


def message_queries(queries: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in queries.captured_queries if '"sms_message"' in query["sql"]]


def sent_today(user) -> str:
    with translation.override("en"):
        return {f.label: f.value for f in dashboard.figures(user)}["Sent today"]


def test_todays_figures_are_counted_once_for_many_page_loads(
    operator, operator_client, provider, sms_template, fresh_figures
):
    template = sms_template()
    good = services.preview_recipients(template, "13800138000\n13900139000", ["1"]).good
    services.send_recipients(template, good)
    assert sent_today(operator) == "2"

    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            assert sent_today(operator) == "2"
            page = operator_client.get(reverse("sms:index"))
            assert page.context["today"]["sent"] == 2

    assert message_queries(queries) == []

