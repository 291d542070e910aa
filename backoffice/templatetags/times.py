"""`{% load times %}`: times with their zone (backoffice.ui.times).

`{{ moment|zoned:"Y-m-d H:i:s" }}` writes the time and its zone's offset; `{% time_zone_note %}`
is the sentence every page ends with, naming the zone of the times it shows.
"""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils.translation import gettext

from backoffice.ui import times

register = template.Library()


@register.filter
def zoned(moment: datetime | None, fmt: str = "Y-m-d H:i") -> str:
    return times.zoned(moment, fmt) if moment else ""


@register.simple_tag
def time_zone_note() -> str:
    return gettext("Times are in %(zone)s (%(offset)s).") % {
        "zone": times.zone_name(), "offset": times.utc_offset()}
