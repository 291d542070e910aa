"""A line chart drawn as inline SVG on the server: no JavaScript, no network, readable offline.

Pure Python (no Django): the caller passes already-translated labels and formatted tick texts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from html import escape

Number = Decimal | float | int


@dataclass(frozen=True)
class Series:
    label: str
    points: Sequence[tuple[datetime, Number]]
    css_class: str  # colours come from the stylesheet, so the chart follows the theme


@dataclass(frozen=True)
class Box:
    width: int = 760
    height: int = 260
    left: int = 72
    right: int = 16
    top: int = 16
    bottom: int = 44

    @property
    def plot_width(self) -> int:
        return self.width - self.left - self.right

    @property
    def plot_height(self) -> int:
        return self.height - self.top - self.bottom


# Estimated width of one character of the chart's 11 px font, in viewBox units: enough to keep
# every label inside the viewBox (digits are about 6.2 px wide, CJK characters 11).
CHAR_WIDTH = 6.6
WIDE_CHAR_WIDTH = 11.0
LEGEND_GAP = 24


def text_width(text: str) -> float:
    return sum(WIDE_CHAR_WIDTH if ord(ch) > 0x2E80 else CHAR_WIDTH for ch in text)


def line_chart_svg(
    series: Sequence[Series],
    *,
    title: str,
    format_time: Callable[[datetime], str],
    format_value: Callable[[Number], str],
    empty_text: str,
    box: Box = Box(),
    y_ticks: int = 4,
    x_ticks: int = 4,
    format_tick: Callable[[float, float], str] | None = None,
) -> str:
    """SVG markup of the series on shared axes; every text is escaped here.

    The value axis runs between round ticks (steps of 1, 2 or 5 times a power of ten, see
    nice_ticks), labelled by `format_tick(value, step)` (format_value by default). Every label
    stays inside the viewBox: the left margin grows to the longest value label, time labels
    are moved in from the edges, legend entries are spaced by their own width. Series are
    drawn in order, each with its own line style (see the stylesheet), so a later one lying
    on an earlier one (the available balance equal to the balance) leaves both visible.
    """
    drawn = [s for s in series if s.points]
    header = (
        f'<svg class="topup-chart" role="img" viewBox="0 0 {box.width} {box.height}" '
        f'xmlns="http://www.w3.org/2000/svg" aria-label="{escape(title)}">'
        f"<title>{escape(title)}</title>"
    )
    if not drawn:
        return (
            header + f'<text x="{box.width / 2:.0f}" y="{box.height / 2:.0f}" '
            f'text-anchor="middle" class="empty">{escape(empty_text)}</text></svg>'
        )
    times = [t.timestamp() for s in drawn for t, _ in s.points]
    values = [float(v) for s in drawn for _, v in s.points]
    t_min, t_max = min(times), max(times)
    ticks = nice_ticks(min(values), max(values), y_ticks)
    v_min, v_max = ticks[0], ticks[-1]
    step = ticks[1] - ticks[0]
    tick_texts = [
        format_tick(value, step) if format_tick else format_value(value) for value in ticks
    ]
    left = max(box.left, round(max(text_width(t) for t in tick_texts)) + 14)
    plot_width = box.width - left - box.right

    def x_of(moment: datetime) -> float:
        if t_max == t_min:
            return left + plot_width / 2
        return left + (moment.timestamp() - t_min) / (t_max - t_min) * plot_width

    def y_of(value: Number) -> float:
        return box.top + (v_max - float(value)) / (v_max - v_min) * box.plot_height

    parts = [header, '<g class="axes">']
    for tick_value, text in zip(ticks, tick_texts, strict=True):
        y = y_of(tick_value)
        parts.append(
            f'<line class="grid" x1="{left}" x2="{box.width - box.right}" '
            f'y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="tick" x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{escape(text)}</text>"
        )
    moments = sorted({t for s in drawn for t, _ in s.points})
    for moment in _spread(moments, x_ticks):
        text = format_time(moment)
        half = text_width(text) / 2
        # Centred under its point, but moved in so that no label runs off either edge.
        x = min(max(x_of(moment), half + 2), box.width - half - 2)
        parts.append(
            f'<text class="tick" x="{x:.1f}" y="{box.height - box.bottom + 18}" '
            f'text-anchor="middle">{escape(text)}</text>'
        )
    parts.append("</g>")
    legend_x = float(left)
    for one in drawn:
        coords = " ".join(f"{x_of(t):.1f},{y_of(v):.1f}" for t, v in one.points)
        parts.append(f'<g class="series {escape(one.css_class)}">')
        parts.append(f'<polyline fill="none" points="{coords}"/>')
        for moment, value in one.points:
            parts.append(
                f'<circle cx="{x_of(moment):.1f}" cy="{y_of(value):.1f}" r="2.5">'
                f"<title>{escape(one.label)}: {escape(format_value(value))} · "
                f"{escape(format_time(moment))}</title></circle>"
            )
        parts.append(
            f'<line class="key" x1="{legend_x:.1f}" x2="{legend_x + 18:.1f}" '
            f'y1="{box.height - 11}" y2="{box.height - 11}"/>'
            f'<text class="legend" x="{legend_x + 24:.1f}" y="{box.height - 7}">'
            f"{escape(one.label)}</text></g>"
        )
        legend_x += 24 + text_width(one.label) + LEGEND_GAP
    parts.append("</svg>")
    return "".join(parts)


def nice_step(span: float, count: int) -> float:
    """The smallest step of 1, 2 or 5 times a power of ten that covers `span` in `count`."""
    raw = span / count
    power: float = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw * (1 - 1e-9):
            return factor * power
    return 10 * power  # not reached: 10 x power >= raw always


def nice_ticks(low: float, high: float, count: int = 4) -> list[float]:
    """Round tick values from at or below `low` to at or above `high`, about `count` steps.

    A flat series (low == high) gets a step around its value, so it sits mid-axis.
    """
    if high == low:
        pad = abs(high) * 0.05 or 1.0
        # A balance never goes below zero: nor does the axis of one that stays at or above it.
        low, high = (low - pad if low - pad >= 0 or low < 0 else 0.0), high + pad
    step = nice_step(high - low, count)
    first = math.floor(low / step + 1e-9) * step
    last = math.ceil(high / step - 1e-9) * step
    steps = round((last - first) / step)
    # Rounded to the step's own decimals, so that 0.1 + 0.2 prints as 0.3.
    decimals = max(0, -math.floor(math.log10(step)))
    return [round(first + i * step, decimals) for i in range(steps + 1)]


def _spread(moments: Sequence[datetime], count: int) -> list[datetime]:
    """Up to `count` moments evenly spread over the list, first and last included."""
    if len(moments) <= count:
        return list(moments)
    step = (len(moments) - 1) / (count - 1)
    return [moments[round(i * step)] for i in range(count)]
