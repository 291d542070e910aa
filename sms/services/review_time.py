"""When the provider's review of a template should be over (sms-and-topup.md: on working
days, the vip channel takes 1-3 hours; the general channel 4-5 working days, or 1-3 hours
when the signature was already filed), so that staff see the expected time when they submit.

Working time runs Monday to Friday in the provider's time zone (Asia/Shanghai), whole days:
the spec names no working hours and no holiday calendar, so a weekend stops the clock and
public holidays are not known. A signature counts as filed when a template of ours on the
general channel with that signature has already been approved.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from sms.models import ReportType, Template, TemplateStatus

SHORT_REVIEW = timedelta(hours=3)  # the upper bound of "1-3 hours"
LONG_REVIEW_DAYS = 5  # the upper bound of "4-5 working days"


@dataclass(frozen=True)
class ReviewTime:
    kind: str  # "vip", "filed" (general, signature filed) or "new_signature"
    expected_by: datetime


def _working(moment: datetime) -> bool:
    return moment.weekday() < 5


def _next_working_start(moment: datetime) -> datetime:
    """`moment` itself on a working day, else the start of the next working day."""
    while not _working(moment):
        moment = (moment + timedelta(days=1)).replace(hour=0, minute=0, second=0,
                                                       microsecond=0)
    return moment


def add_working_time(start: datetime, span: timedelta) -> datetime:
    """`start` moved on by `span` of working time (weekends skipped), in start's zone."""
    moment = _next_working_start(start)
    left = span
    while True:
        day_end = (moment + timedelta(days=1)).replace(hour=0, minute=0, second=0,
                                                       microsecond=0)
        if moment + left <= day_end:
            return moment + left
        left -= day_end - moment
        moment = _next_working_start(day_end)


def signature_filed(temp_sign: str) -> bool:
    return Template.objects.filter(temp_sign=temp_sign, report_type=ReportType.GENERAL,
                                   status=TemplateStatus.SUCCESS).exists()


def expected_review(template: Template, submitted_at: datetime | None = None) -> ReviewTime:
    start = timezone.localtime(submitted_at or timezone.now())
    if template.report_type == ReportType.VIP:
        return ReviewTime("vip", add_working_time(start, SHORT_REVIEW))
    if signature_filed(template.temp_sign):
        return ReviewTime("filed", add_working_time(start, SHORT_REVIEW))
    return ReviewTime("new_signature",
                      add_working_time(start, timedelta(days=LONG_REVIEW_DAYS)))
