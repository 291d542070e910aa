"""A paginator whose count stops at a cap, for lists of a table that grows without end.

Django's Paginator counts every matching row to print "N orders" and "page X of Y": on
500,000 orders that is a read of the whole table (or of every match of a filter) on each page
view. Counting stops here at `CAP` rows (`SELECT count(*) FROM (... LIMIT CAP + 1)`), so a
page costs the same on the first day and after a year; past the cap the page says "more than
CAP" and pages on without a last page number.
"""

from __future__ import annotations

from typing import TypeVar, cast

from django.core.paginator import Paginator
from django.db.models import Model, QuerySet
from django.utils.functional import cached_property

CAP = 2_000


_M = TypeVar("_M", bound=Model)


class CappedPaginator(Paginator[_M]):
    cap = CAP

    @cached_property
    def count(self) -> int:
        # Without the list's ORDER BY, which would make PostgreSQL sort every match first.
        rows = cast(QuerySet[_M], self.object_list)  # the lists page querysets only
        return rows.order_by()[: self.cap + 1].count()

    @property
    def capped(self) -> bool:
        """More rows match than were counted."""
        return self.count > self.cap
