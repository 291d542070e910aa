"""A line chart drawn as inline SVG on the server: no JavaScript, no network, readable offline.

Pure Python (no Django): the caller passes already-translated labels and formatted tick texts.
"""

from __future__ import annotations

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
) -> str:
    """SVG markup of the series on shared axes; every text is escaped here."""
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
    v_min, v_max = _value_range(min(values), max(values))

    def x_of(moment: datetime) -> float:
        if t_max == t_min:
            return box.left + box.plot_width / 2
        return box.left + (moment.timestamp() - t_min) / (t_max - t_min) * box.plot_width

    def y_of(value: Number) -> float:
        return box.top + (v_max - float(value)) / (v_max - v_min) * box.plot_height

    parts = [header, '<g class="axes">']
    for i in range(y_ticks + 1):
        value: Number = v_min + (v_max - v_min) * i / y_ticks
        y = y_of(value)
        parts.append(
            f'<line class="grid" x1="{box.left}" x2="{box.width - box.right}" '
            f'y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="tick" x="{box.left - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{escape(format_value(value))}</text>"
        )
    moments = sorted({t for s in drawn for t, _ in s.points})
    for moment in _spread(moments, x_ticks):
        x = x_of(moment)
        parts.append(
            f'<text class="tick" x="{x:.1f}" y="{box.height - box.bottom + 18}" '
            f'text-anchor="middle">{escape(format_time(moment))}</text>'
        )
    parts.append("</g>")
    for index, one in enumerate(drawn):
        coords = " ".join(f"{x_of(t):.1f},{y_of(v):.1f}" for t, v in one.points)
        parts.append(f'<g class="series {escape(one.css_class)}">')
        parts.append(f'<polyline fill="none" points="{coords}"/>')
        for moment, value in one.points:
            parts.append(
                f'<circle cx="{x_of(moment):.1f}" cy="{y_of(value):.1f}" r="2.5">'
                f"<title>{escape(one.label)}: {escape(format_value(value))} · "
                f"{escape(format_time(moment))}</title></circle>"
            )
        legend_x = box.left + 8 + index * 160
        parts.append(
            f'<rect x="{legend_x}" y="{box.height - 14}" width="12" height="4"/>'
            f'<text class="legend" x="{legend_x + 18}" y="{box.height - 9}">'
            f"{escape(one.label)}</text></g>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _value_range(low: float, high: float) -> tuple[float, float]:
    """A range with some air, never empty (a flat balance still gets a readable axis)."""
    if high == low:
        pad = abs(high) * 0.05 or 1.0
        return low - pad, high + pad
    pad = (high - low) * 0.08
    return low - pad, high + pad


def _spread(moments: Sequence[datetime], count: int) -> list[datetime]:
    """Up to `count` moments evenly spread over the list, first and last included."""
    if len(moments) <= count:
        return list(moments)
    step = (len(moments) - 1) / (count - 1)
    return [moments[round(i * step)] for i in range(count)]
