"""Words that must not be sent: the merchant's list, checked in templates and variable values
before anything goes to the provider (sms.services.words)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class BlockedWord(models.Model):
    word = models.CharField(_("word"), max_length=64, unique=True)
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                 blank=True, related_name="+", verbose_name=_("added by"))
    added_at = models.DateTimeField(_("added at"), default=timezone.now)

    class Meta:
        verbose_name = _("blocked word")
        verbose_name_plural = _("blocked words")
        ordering = ["word"]

    def __str__(self) -> str:
        return self.word
