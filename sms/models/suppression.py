"""The suppression list: numbers that must not receive marketing messages, and a list file
between its check and its confirmation."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class SuppressionReason(models.TextChoices):
    UNSUBSCRIBED = "unsubscribed", _("Unsubscribed")
    COMPLAINT = "complaint", _("Complaint")
    INVALID = "invalid", _("Invalid number")
    MANUAL = "manual", _("Added by staff")


class SuppressedNumber(models.Model):
    """A number that must not receive marketing messages (nor those of a template marked to
    respect the list). Removing one is recorded in the audit log; the row itself goes."""

    mobile = models.CharField(_("mobile"), max_length=11, unique=True)
    reason = models.CharField(_("reason"), max_length=20, choices=SuppressionReason.choices)
    note = models.CharField(_("note"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("added at"), default=timezone.now, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("added by"),
    )

    class Meta:
        verbose_name = _("suppressed number")
        verbose_name_plural = _("suppressed numbers")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.mobile} ({self.reason})"


class SuppressionImport(models.Model):
    """A suppression file between its check and its confirmation.

    The file is kept in the default storage (shared by every web host), so the confirmation
    may land on another host than the upload; the check's figures and first bad lines are kept
    here for the check page.
    """

    source_name = models.CharField(_("file name"), max_length=255)
    source_file = models.FileField(_("uploaded file"), upload_to="sms/suppression/")
    file_is_private = models.BooleanField(_("file kept privately"), default=True, editable=False)
    encoding = models.CharField(_("file encoding"), max_length=20)
    reason = models.CharField(_("reason"), max_length=20, choices=SuppressionReason.choices)
    note = models.CharField(_("note"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    lines_read = models.PositiveIntegerField(_("lines read"), default=0)
    skipped_header = models.BooleanField(_("first line skipped as a header"), default=False)
    new_numbers = models.PositiveIntegerField(_("numbers to add"), default=0)
    known_numbers = models.PositiveIntegerField(_("numbers already on the list"), default=0)
    bad_lines = models.PositiveIntegerField(_("bad lines"), default=0)
    # The first bad lines, for the check page: [{"line": n, "mobile": "...", "code": "...",
    # "params": {...}}, ...]; the count above is the full number.
    problems = models.JSONField(_("bad lines shown"), default=list, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    added = models.PositiveIntegerField(_("numbers added"), default=0)

    class Meta:
        verbose_name = _("suppression import")
        verbose_name_plural = _("suppression imports")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"suppression import {self.pk} ({self.source_name})"
