"""`{% sparkline chart %}`: a tile's 14-day chart (backoffice.ui.tiles.DailyChart) drawn as a small
SVG on the server.

No script (the Content-Security-Policy allows none inline) and no inline style: colours come
from classes in static/css/app.css. The picture holds no text, so nothing can be cut off at a
tile's width; what it shows is said in words instead: the SVG's <title> names it, its <desc>
sums it up (first and last day, lowest, highest, today) for screen readers, and each day's
bar or point has its own <title> (the date and the value) for the pointer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django import template
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from backoffice.ui.tiles import DailyChart

register = template.Library()

WIDTH = 140  # 10 units per day of a 14-day chart: a bar 7 wide with a gap of 3
HEIGHT = 32
PAD = 2  # keeps the line's stroke and the highest bar's top inside the picture


@dataclass(frozen=True)
class Mark:
    """One day: a rectangle (the bar, or for a line the day's hover area), its tooltip, and
    for a line the day's point on it."""

    x: float
    y: float
    width: float
    height: float
    label: str
    point: tuple[float, float] | None = None


# The pages' own date format (lists, details and the audit log write Y-m-d in every language).
DAY_FORMAT = "Y-m-d"


def _day(value: date) -> str:
    return str(formats.date_format(value, DAY_FORMAT))


def facts(chart: DailyChart) -> str:
    """What the chart shows, as text beside it: the latest reading and the range; or, below
    two readings, that there is not enough data yet for a trend."""
    known = [(day, value) for day, value in zip(chart.days, chart.values, strict=True)
             if value is not None]
    if not known:
        return _("No data yet.")
    day, latest = known[-1]
    if len(known) < 2:
        return _("Not enough data yet: one reading, %(value)s on %(day)s.") % {
            "value": chart.format_value(latest), "day": _day(day)}
    values = [value for _day_, value in known]
    return _("Latest %(value)s (%(day)s); range %(low)s to %(high)s.") % {
        "value": chart.format_value(latest), "day": _day(day),
        "low": chart.format_value(min(values)), "high": chart.format_value(max(values))}


def summary(chart: DailyChart) -> str:
    known = [value for value in chart.values if value is not None]
    if not known:
        return ngettext(
            "%(title)s: nothing recorded in the last %(days)s day.",
            "%(title)s: nothing recorded in the last %(days)s days.",
            len(chart.days),
        ) % {"title": chart.title, "days": len(chart.days)}
    today = chart.values[-1]
    return _("%(title)s from %(first)s to %(last)s: lowest %(low)s, highest %(high)s, "
             "today %(today)s.") % {
        "title": chart.title,
        "first": _day(chart.days[0]),
        "last": _day(chart.days[-1]),
        "low": chart.format_value(min(known)),
        "high": chart.format_value(max(known)),
        "today": chart.format_value(today) if today is not None else _("not recorded"),
    }


def _label(chart: DailyChart, index: int) -> str:
    value = chart.values[index]
    shown = chart.format_value(value) if value is not None else _("not recorded")
    # Worded through the catalogue: Chinese writes the colon full-width.
    return _("%(day)s: %(value)s") % {"day": _day(chart.days[index]), "value": shown}


def _slot(chart: DailyChart) -> float:
    return WIDTH / max(len(chart.days), 1)


def bars(chart: DailyChart) -> list[Mark]:
    slot = _slot(chart)
    top = max((value for value in chart.values if value is not None), default=0) or 1
    marks = []
    for index, value in enumerate(chart.values):
        # A day of zero still shows a sliver, so that fourteen days read as fourteen days.
        height = max((HEIGHT - PAD) * (value or 0) / top, 1)
        marks.append(Mark(round(index * slot + slot * 0.15, 2), round(HEIGHT - height, 2),
                          round(slot * 0.7, 2), round(height, 2), _label(chart, index)))
    return marks


def points(chart: DailyChart) -> list[Mark]:
    slot = _slot(chart)
    known = [value for value in chart.values if value is not None]
    if not known:
        return []
    low, high = min(known), max(known)
    span = high - low
    marks = []
    for index, value in enumerate(chart.values):
        if value is None:
            continue
        # A level that did not move is drawn across the middle, not along the floor.
        share = (value - low) / span if span else 0.5
        y = PAD + (HEIGHT - 2 * PAD) * (1 - share)
        marks.append(Mark(round(index * slot, 2), 0, round(slot, 2), HEIGHT,
                          _label(chart, index), (round(index * slot + slot / 2, 2), round(y, 2))))
    return marks


@register.inclusion_tag("backoffice/sparkline.html")
def sparkline(chart: DailyChart, name: str) -> dict[str, Any]:
    """`name` makes the ids of the title and the summary unique on the page."""
    marks = bars(chart) if chart.kind == "bars" else points(chart)
    return {
        "chart": chart,
        "ident": f"chart-{name}",
        "width": WIDTH,
        "height": HEIGHT,
        "marks": marks,
        "polyline": " ".join(f"{mark.point[0]},{mark.point[1]}" for mark in marks if mark.point),
        # One reading makes no line: it is drawn as a dot.
        "dot": marks[0].point if chart.kind == "line" and len(marks) == 1 else None,
        "summary": summary(chart),
        "facts": facts(chart),
    }
