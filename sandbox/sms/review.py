"""Template review: the administrator's decision (control API) and the automatic review
(a tick handler) that approves a template `review_delay_s` after it was submitted."""

from __future__ import annotations

from django.db import transaction

from sandbox.core import clock
from sandbox.sms.models import FiledSignature, ReportType, Template, TemplateStatus
from sandbox.sms.owner_settings import current_settings
from sandbox.sms.rules import utc_datetime
from sandbox.sms.working_time import add_working_time

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


# The spec's review times (sms-and-topup.md), at their upper bounds, in working time.
SHORT_REVIEW_S = 3 * 3600  # vip, or general with a filed signature: "1-3 hours"
LONG_REVIEW_S = 5 * 86_400  # general with a new signature: "4-5 working days"
REVIEW_CLOCKS = ("fixed", "working_days")


def review_span_s(template: Template) -> float:
    if template.report_type == ReportType.VIP:
        return SHORT_REVIEW_S
    if FiledSignature.objects.filter(temp_sign=template.temp_sign).exists():
        return SHORT_REVIEW_S
    return LONG_REVIEW_S


def _approve_on_working_days(now: float) -> None:
    for template in Template.objects.filter(status=TemplateStatus.REVIEW):
        due = add_working_time(template.submitted_ts, review_span_s(template))
        if due <= now:
            Template.objects.filter(
                pk=template.pk, status=TemplateStatus.REVIEW,
                submitted_ts=template.submitted_ts,
            ).update(status=TemplateStatus.SUCCESS, updated_at=utc_datetime(due))


def approve_due(now: float) -> None:
    """With auto_review on, approve every template whose review time has come. The settings
    of the moment apply, so turning auto_review on also approves templates already waiting."""
    settings = current_settings()
    if not settings.auto_review:
        return
    if settings.review_clock == "working_days":
        _approve_on_working_days(now)
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
