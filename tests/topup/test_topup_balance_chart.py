"""The balance history chart: inline SVG built on the server, every text escaped."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from topup.chart import Series, line_chart_svg, nice_ticks, text_width

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


def is_round(step: float) -> bool:
    """1, 2 or 5 times a power of ten."""
    import math

    mantissa = step / 10 ** math.floor(math.log10(step))
    return any(abs(mantissa - m) < 1e-9 for m in (1, 2, 5))


@pytest.mark.parametrize("low,high", [
    (1234.56, 1290.1), (0.13, 0.31), (0, 100), (99_990, 100_020), (9.5, 9.5), (3.7, 1_234_567.0),
])
def test_ticks_are_round_steps_covering_every_value(low, high):
    ticks = nice_ticks(low, high, 4)

    steps = {round(b - a, 9) for a, b in zip(ticks, ticks[1:], strict=False)}
    assert len(steps) == 1 and is_round(steps.pop())
    assert ticks[0] <= low and ticks[-1] >= high
    assert 3 <= len(ticks) <= 7
    assert all(abs(t / (ticks[1] - ticks[0]) - round(t / (ticks[1] - ticks[0]))) < 1e-6
               for t in ticks)  # every tick is a multiple of the step


def test_a_flat_zero_balance_gets_no_negative_axis():
    assert nice_ticks(0, 0)[0] == 0


def test_the_value_axis_is_labelled_with_round_numbers():
    points = [(T0, Decimal("1234.56")), (T0 + timedelta(days=1), Decimal("1290.10"))]
    svg = chart([Series("Balance", points, "balance")])

    labels = re.findall(r'<text class="tick" x="[\d.]+" y="[\d.]+" text-anchor="end">([^<]+)<',
                        svg)
    assert labels == ["1220.00", "1240.00", "1260.00", "1280.00", "1300.00"]


def test_both_series_are_drawn_with_a_legend_even_when_equal():
    points = [(T0, Decimal("50")), (T0 + timedelta(days=1), Decimal("40"))]
    svg = chart([Series("Balance", points, "balance"), Series("Available", points, "available")])

    assert svg.count("<polyline") == 2
    assert '<g class="series balance">' in svg and '<g class="series available">' in svg
    assert ">Balance</text>" in svg and ">Available</text>" in svg
    first, second = re.findall(r'<text class="legend" x="([\d.]+)"', svg)
    assert float(second) > float(first) + len("Balance") * 6  # the keys do not overlap


def test_long_labels_widen_the_margin_and_stay_inside():
    points = [(T0, Decimal("1234567.89")), (T0 + timedelta(days=30), Decimal("1000000"))]
    svg = line_chart_svg([Series("Balance", points, "balance")], title="t",
                         format_time=lambda t: f"{t:%Y-%m-%d %H:%M}",
                         format_value=lambda v: f"{float(v):,.2f}", empty_text="")

    for x, anchor, text in re.findall(
            r'<text class="tick" x="([\d.]+)" y="[\d.]+" text-anchor="(\w+)">([^<]+)<', svg):
        width = text_width(text)
        start = float(x) - (width if anchor == "end" else width / 2)
        end = float(x) + (0 if anchor == "end" else width / 2)
        assert start >= 0 and end <= 760, (text, start, end)
