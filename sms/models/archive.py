"""Months of messages the retention rule archived (sms.services.retention)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class MessageArchive(models.Model):
    """A month of messages the retention rule took out of the table, as the report's CSV in
    the private file storage (sms.services.retention)."""

    month = models.DateField(_("month"), db_index=True)  # its first day
    rows = models.PositiveBigIntegerField(_("messages"))
    size = models.PositiveBigIntegerField(_("size in bytes"))
    file = models.FileField(_("file"), upload_to="sms/archive/", max_length=300)
    archived_at = models.DateTimeField(_("archived at"), default=timezone.now)

    class Meta:
        verbose_name = _("archived month of messages")
        verbose_name_plural = _("archived months of messages")
        ordering = ["-month"]

    def __str__(self) -> str:
        return f"messages of {self.month:%Y-%m} ({self.rows})"
