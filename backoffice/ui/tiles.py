"""Dashboard tiles: the provider's last answer per service, plus each app's own figures and
its 14-day chart.

An app fills its tile by providing `<app>/dashboard.py` with
- `figures(user)`: rows of (label, value) or (label, value, url), or `Figure`s; a row with a
  url links its figure to the filtered list behind it;
- optionally `chart(user) -> DailyChart | None`: the tile's small 14-day chart.
This module finds them by name so that the project does not have to know every app's
internals.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from types import ModuleType
from typing import Literal

from django.utils import timezone

from backoffice.annotations import RequestUser
from backoffice.catalogue import Service
from backoffice.models import ProviderContact

logger = logging.getLogger(__name__)

CHART_DAYS = 14


@dataclass(frozen=True)
class Figure:
    """One figure of a tile; `url` is the filtered list behind it (empty: none)."""

    label: str
    value: str
    url: str = ""

    def __iter__(self) -> Iterator[str]:
        # Unpacks as the (label, value) rows of before, so `dict(figures(user))` still reads
        # a tile's figures by label.
        return iter((self.label, self.value))


@dataclass(frozen=True)
class DailyChart:
    """A tile's chart: one value per local day, oldest first, the last one today.

    `values[i]` belongs to `days[i]`; None is a day with nothing recorded (a level such as a
    balance that was not read that day), told apart from zero by its title ("not
    recorded"): a bar day keeps only the floor's sliver, a line day has no point of its own
    (the line joins the days either side). Counts
    draw as bars, levels (a balance, a usage) as a line. `title` names what is drawn, translated and
    short enough for one line of a tile; `url` is the list behind the chart.
    """

    title: str
    days: Sequence[date]
    values: Sequence[float | None]
    format_value: Callable[[float], str]
    kind: Literal["bars", "line"] = "bars"
    url: str = ""


def chart_days(count: int = CHART_DAYS, today: date | None = None) -> list[date]:
    """The last `count` local days, oldest first, ending today."""
    last = today or timezone.localdate()
    return [last - timedelta(days=back) for back in range(count - 1, -1, -1)]


def day_start(day: date) -> datetime:
    """Local midnight at the start of `day`, as an aware datetime (for index ranges)."""
    return timezone.make_aware(datetime.combine(day, time.min))


def per_day(days: Sequence[date], found: Mapping[date, float], missing: float | None = 0
            ) -> list[float | None]:
    """`found` laid out on `days`; a day absent from it gets `missing`."""
    return [found.get(day, missing) for day in days]


@dataclass
class Tile:
    service: Service
    contact: ProviderContact | None
    figures: list[Figure] = field(default_factory=list)
    figures_error: bool = False
    chart: DailyChart | None = None


def _figure(row: Figure | Iterable[str]) -> Figure:
    return row if isinstance(row, Figure) else Figure(*row)


def _dashboard_module(service: Service) -> ModuleType | None:
    module_name = f"{service.app_label}.dashboard"
    if importlib.util.find_spec(module_name) is None:
        return None
    return importlib.import_module(module_name)


def app_figures(service: Service, user: RequestUser) -> tuple[list[Figure], bool]:
    module = _dashboard_module(service)
    if module is None:
        return [], False
    try:
        return [_figure(row) for row in module.figures(user)], False
    except Exception:
        # One app's broken figures must not take the whole dashboard down.
        logger.exception("dashboard figures of %s failed", service.key)
        return [], True


def app_chart(service: Service, user: RequestUser) -> DailyChart | None:
    module = _dashboard_module(service)
    if module is None or not hasattr(module, "chart"):
        return None
    try:
        chart: DailyChart | None = module.chart(user)
    except Exception:
        # A chart is an extra: without it the tile still shows its figures.
        logger.exception("dashboard chart of %s failed", service.key)
        return None
    return chart


def build_tiles(services: list[Service], user: RequestUser) -> list[Tile]:
    contacts = {c.service: c for c in ProviderContact.objects.filter(
        service__in=[s.key for s in services])}
    tiles = []
    for service in services:
        figures, failed = app_figures(service, user)
        chart = app_chart(service, user)
        tiles.append(Tile(service, contacts.get(service.key), figures, failed, chart))
    return tiles
