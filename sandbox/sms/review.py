"""Template review: the administrator's decision (control API) and the automatic review
(a tick handler) that approves a template `review_delay_s` after it was submitted."""

from __future__ import annotations

from django.db import transaction

from sandbox.core import clock
from sandbox.sms.models import Template, TemplateStatus
from sandbox.sms.owner_settings import current_settings
from sandbox.sms.rules import utc_datetime

DECISIONS = (TemplateStatus.SUCCESS, TemplateStatus.DEFEAT)


class NotUnderReview(Exception):
    """Only a template in `review` can be decided on."""


def decide(template_id: int, status: str) -> Template:
    """Record the administrator's decision; raises Template.DoesNotExist or NotUnderReview."""
    with transaction.atomic():
        template = Template.objects.get(pk=template_id)
        if template.status != TemplateStatus.REVIEW:
            raise NotUnderReview(f"template {template_id} is not under review "
                                 f"(status {template.status})")
        template.status = status
        template.updated_at = clock.now_datetime()
        template.save(update_fields=["status", "updated_at"])
    return template


def approve_due(now: float) -> None:
    """With auto_review on, approve every template whose review time has come. The settings
    of the moment apply, so turning auto_review on also approves templates already waiting."""
    settings = current_settings()
    if not settings.auto_review:
        return
    cutoff = now - settings.review_delay_s
    due = Template.objects.filter(status=TemplateStatus.REVIEW, submitted_ts__lte=cutoff)
    if not due.exists():
        return
    with transaction.atomic():
        for template in due:
            # Matching submitted_ts as well: a template edited meanwhile waits its new turn.
            Template.objects.filter(
                pk=template.pk, status=TemplateStatus.REVIEW,
                submitted_ts=template.submitted_ts,
            ).update(status=TemplateStatus.SUCCESS,
                     updated_at=utc_datetime(template.submitted_ts + settings.review_delay_s))
