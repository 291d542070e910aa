"""The dashboard's 14-day charts: small SVGs drawn on the server (no script, no inline style),
named and summed up in words in the reader's language, and a dashboard of every tile that
stays within the query budget of bench/report_scale.py."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

import pytest
from django.db import connection
from django.template import Context, Template
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from backoffice.templatetags.sparklines import HEIGHT, bars, points, summary
from backoffice.ui.tiles import DailyChart, Figure, chart_days, per_day

DAYS = chart_days(14, today=date(2026, 11, 25))


def chart(values: Sequence[float | None], kind: str = "bars") -> DailyChart:
    return DailyChart(title="Messages sent per day", days=DAYS, values=values,
                      format_value=lambda value: f"{value:,.0f}", kind=kind,  # type: ignore[arg-type]
                      url="/sms/report/")


def test_chart_days_are_the_last_fourteen_ending_today():
    assert DAYS[0] == date(2026, 11, 12) and DAYS[-1] == date(2026, 11, 25) and len(DAYS) == 14
    assert per_day(DAYS[:2], {DAYS[1]: 5}) == [0, 5]
    assert per_day(DAYS[:2], {DAYS[1]: 5}, None) == [None, 5]


def test_bars_scale_to_the_busiest_day_and_a_quiet_day_still_shows():
    marks = bars(chart([0] * 13 + [10]))
    assert len(marks) == 14
    assert marks[-1].height == pytest.approx(HEIGHT - 2) and marks[-1].y == pytest.approx(2)
    assert marks[0].height == 1  # a sliver: fourteen days read as fourteen days
    assert marks[-1].label == "2026-11-25: 10"  # the pages' date format
    assert all(marks[i].x < marks[i + 1].x for i in range(13))


def test_a_line_leaves_days_without_a_reading_out_and_a_flat_level_in_the_middle():
    line = points(chart([None] * 10 + [5, None, 5, 5], kind="line"))
    assert [mark.label.split(": ")[1] for mark in line] == ["5", "5", "5"]
    assert {mark.point[1] for mark in line if mark.point} == {HEIGHT / 2}
    assert points(chart([None] * 14, kind="line")) == []


def test_the_facts_beside_a_chart_say_the_latest_reading_and_the_range():
    from backoffice.templatetags.sparklines import facts

    assert facts(chart([0] * 12 + [7, 3])) == "Latest 3 (2026-11-25); range 0 to 7."
    assert facts(chart([None] * 13 + [5], kind="line")) == (
        "Not enough data yet: one reading, 5 on 2026-11-25.")
    assert facts(chart([None] * 14, kind="line")) == "No data yet."


def test_the_summary_says_the_range_the_extremes_and_today():
    assert summary(chart([0] * 12 + [7, 3])) == (
        "Messages sent per day from 2026-11-12 to 2026-11-25: lowest 0, highest 7, today 3.")
    assert summary(chart([None] * 14, kind="line")) == (
        "Messages sent per day: nothing recorded in the last 14 days.")


def test_the_summary_and_caption_speak_chinese():
    with translation.override("zh-hans"):
        text = summary(chart([0] * 12 + [7, 3]))
        html = Template("{% load sparklines %}{% sparkline c 'sms' %}").render(
            Context({"c": chart([0] * 12 + [7, 3])}))
    assert "最低 0" in text and "最高 7" in text and "今天 3" in text
    assert "近 14 天" in html


def render(values: Sequence[float | None], kind: str = "bars") -> str:
    return Template("{% load sparklines %}{% sparkline c 'sms' %}").render(
        Context({"c": chart(values, kind)}))


def test_the_svg_is_named_and_described_and_carries_no_script_or_inline_style():
    html = render([0] * 13 + [4])
    assert 'role="img"' in html
    assert 'aria-labelledby="chart-sms-title chart-sms-desc"' in html
    assert '<title id="chart-sms-title">Messages sent per day</title>' in html
    assert '<desc id="chart-sms-desc">Messages sent per day from' in html
    assert html.count("<rect ") == 14
    assert 'href="/sms/report/"' in html
    assert "<script" not in html and "style=" not in html and " on" not in html.replace(
        " one", "")
    assert "Messages sent per day, last 14 days" in html  # the caption under it


def test_a_line_chart_draws_one_polyline_through_the_readings():
    html = render([None] * 12 + [1, 2], kind="line")
    assert len(re.findall(r"<polyline points=\"[\d.]+,[\d.]+ [\d.]+,[\d.]+\"", html)) == 1


def test_a_figure_unpacks_as_label_and_value():
    # dict() of Figures works at run time; their type is not a (label, value) tuple.
    assert dict([Figure("Sent today", "2", "/sms/report/")]) == {  # type: ignore[arg-type]
        "Sent today": "2"}


@pytest.mark.django_db
def test_the_dashboard_of_every_tile_shows_four_charts_within_the_query_budget(
    client, django_user_model
):
    from sms.services.counts import forget_today

    forget_today()
    admin = django_user_model.objects.create_superuser("root", password=None)
    client.force_login(admin)
    client.get("/")  # warm, as the bench does: the per-minute caches
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/").content.decode()
    assert len(queries.captured_queries) <= 20
    charts = re.findall(r'<figure class="sparkline" data-chart="chart-(\w+)"', page)
    assert sorted(charts) == ["delivery", "sms", "storage", "topup"]
    # every figure of every tile is a link
    figures = re.findall(r"<dd>(.*?)</dd>", page)
    assert figures and all(value.startswith("<a href=") for value in figures), figures

