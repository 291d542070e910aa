"""The balance history chart: inline SVG built on the server, every text escaped."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

from topup.chart import Series, line_chart_svg

T0 = datetime(2026, 11, 1, tzinfo=UTC)


def chart(series: list[Series]) -> str:
    return line_chart_svg(series, title="Balance <history>", format_time=lambda t: f"{t:%d}",
                          format_value=lambda v: f"{float(v):.2f}", empty_text="Nothing & none")


def test_points_are_drawn_left_to_right_and_high_values_higher():
    points = [(T0, Decimal("100")), (T0 + timedelta(days=1), Decimal("50")),
              (T0 + timedelta(days=2), Decimal("75"))]
    svg = chart([Series("Balance", points, "balance")])
    coords = svg.split('points="')[1].split('"')[0].split()
    xs = [float(c.split(",")[0]) for c in coords]
    ys = [float(c.split(",")[1]) for c in coords]
    assert xs == sorted(xs) and len(xs) == 3
    assert ys[0] < ys[2] < ys[1]  # SVG y grows downwards
    assert svg.count("<circle") == 3 and "100.00" in svg


def test_texts_are_escaped():
    svg = chart([Series("<script>", [(T0, 1)], "x\" onload=\"alert(1)")])
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert 'onload="' not in svg
    assert "Balance &lt;history&gt;" in svg


def test_an_empty_history_says_so():
    svg = chart([Series("Balance", [], "balance")])
    assert "Nothing &amp; none" in svg and "<polyline" not in svg


def test_a_single_flat_point_still_gets_an_axis():
    svg = chart([Series("Balance", [(T0, Decimal("10"))], "balance")])
    assert svg.count("<circle") == 1 and "nan" not in svg.lower()
