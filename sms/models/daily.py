"""Messages sent on each day that is over: the dashboard's 14-day chart (sms.services.counts)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class DailySends(models.Model):
    """Messages the provider accepted on one local day that is over, as last counted.

    Kept here rather than in the cache: at ten million messages, counting a fortnight again
    after the cache was emptied (a deployment, a Redis restart) took seconds
    (bench/report_scale.py --scale 10). A day counted a whole day after it ended is final.
    """

    day = models.DateField(_("day"), unique=True)
    sent = models.PositiveIntegerField(_("messages sent"))
    counted_at = models.DateTimeField(_("counted at"), default=timezone.now)

    class Meta:
        verbose_name = _("messages sent on a day")
        verbose_name_plural = _("messages sent by day")
        ordering = ["-day"]

    def __str__(self) -> str:
        return f"{self.day}: {self.sent}"
