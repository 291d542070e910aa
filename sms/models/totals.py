"""The delivery report's totals of the whole table, kept (sms.services.report_totals)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class ReportTotals(models.Model):
    """Every message in the report by status, as last counted, and how long that took.

    One row. A count that took long (a big table) is made again by the beat job
    `sms-count-report-totals` and read by the report page, which would otherwise count the
    whole table whenever its cached totals ran out (1.6 s at ten million messages).
    """

    counts = models.JSONField(_("messages by status"), default=dict)
    counted_at = models.DateTimeField(_("counted at"))
    took_s = models.FloatField(_("seconds the count took"))

    class Meta:
        verbose_name = _("delivery report totals")
        verbose_name_plural = _("delivery report totals")

    def __str__(self) -> str:
        return f"{sum(self.counts.values())} messages at {self.counted_at:%Y-%m-%d %H:%M}"
