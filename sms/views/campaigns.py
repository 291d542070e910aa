"""Campaign pages: the list, one campaign (import report, progress, results) and its actions."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.contrib import messages
from django.contrib.humanize.templatetags.humanize import intcomma
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from backoffice.annotations import StaffRequest
from backoffice.security.access import staff_user
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from backoffice.ui import csv_export
from sms import services, texts
from sms.forms import RescheduleForm, ScheduleForm
from sms.models import Campaign, CampaignSource, CampaignState, ImportProblem
from sms.views.access import SEND, abilities, may_override_window, needs

PROBLEMS_SHOWN = 200
RESULTS_SHOWN = 50


@needs()
def campaign_list(request: StaffRequest) -> HttpResponse:
    # A send page preview is stored as a draft only so that "Send" confirms exactly what was
    # previewed: it is not a campaign anyone waits on, and it is dropped after a day.
    campaigns = Campaign.objects.select_related("template", "created_by").exclude(
        state=CampaignState.DRAFT, source=CampaignSource.FORM
    )
    state = request.GET.get("state", "")
    if state in CampaignState.values:
        campaigns = campaigns.filter(state=state)
    # Campaigns are few next to messages: a counted page is fine here.
    page = Paginator(campaigns, 25).get_page(request.GET.get("page"))
    return render(
        request,
        "sms/campaign_list.html",
        {"page": page, "state": state, "states": CampaignState.choices},
    )


@needs()
def campaign_detail(request: StaffRequest, pk: int) -> HttpResponse:
    return _detail(request, pk)


def _detail(
    request: StaffRequest,
    pk: int,
    schedule_form: ScheduleForm | None = None,
    reschedule_form: RescheduleForm | None = None,
) -> HttpResponse:
    """The campaign's page; the confirm and reschedule views show it again with their errors."""
    campaign = get_object_or_404(
        Campaign.objects.select_related("template", "created_by", "window_override_by"), pk=pk
    )
    quota = services.latest_quota()
    quota_left = quota.left_for(campaign.template.report_type) if quota else None
    problems = [
        {
            "line": problem.line_number,
            "mobile": problem.mobile,
            "reason": texts.code_text(problem.code, problem.params),
        }
        for problem in campaign.problems.all()[:PROBLEMS_SHOWN]
    ]
    reasons = [
        {"label": texts.REASON_LABELS.get(row["code"], row["code"]), "count": row["count"]}
        for row in campaign.problems.values("code").annotate(count=Count("id")).order_by("code")
    ]
    results = services.report_page(services.ReportFilters(campaign_id=campaign.pk),
                                   size=RESULTS_SHOWN)
    draft = campaign.state == CampaignState.DRAFT
    # The page and its progress poll share one count every few seconds: counting reads each of
    # the campaign's messages (~100 ms for 200,000), however many people watch it.
    counts = None if draft else services.polled_campaign_counts(campaign)
    recently_sent = services.recently_sent_elsewhere(campaign) if draft else 0
    # Queued with nothing handed to the provider yet is "not started", as a scheduled one is.
    queued_not_started = (campaign.state == CampaignState.QUEUED and counts is not None
                          and counts.handed_over == 0)
    invalid_count = 0 if draft else services.invalid_numbers_count(campaign)
    return render(
        request,
        "sms/campaign_detail.html",
        {
            "campaign": campaign,
            "quota": quota,
            "quota_left": quota_left,
            "over_quota": quota_left is not None and campaign.total_units > quota_left,
            "problems": problems,
            "more_problems": campaign.problems.count() > PROBLEMS_SHOWN if problems else False,
            "reasons": reasons,
            "results": results,
            "blockers": services.send_blockers(campaign.template, quota),
            "halt_text": _halt_text(campaign),
            "counts": counts,
            "queued_not_started": queued_not_started,
            "recently_sent_text": _recently_sent_text(recently_sent),
            "recently_sent_numbers": services.recently_sent_numbers(campaign)
            if recently_sent else [],
            "bad_line_count": campaign.bad_lines,
            "invalid_count": invalid_count,
            "sending_text": _sending_text(counts) if counts else "",
            "delivery_text": _delivery_text(counts) if counts else "",
            "schedule_form": schedule_form
            or ScheduleForm(can_override=may_override_window(request.user, campaign.template.type)),
            "reschedule_form": reschedule_form or _reschedule_form(campaign),
            "window": services.marketing_window(),
            "first_send_at": services.first_send_at(campaign),
            **abilities(request.user),
        },
    )


def _reschedule_form(campaign: Campaign) -> RescheduleForm:
    start_at = campaign.scheduled_at
    return RescheduleForm(initial={"start_at": start_at and timezone.localtime(start_at)})


@needs()
def campaign_progress(request: StaffRequest, pk: int) -> JsonResponse:
    campaign = get_object_or_404(Campaign, pk=pk)
    counts = services.polled_campaign_counts(campaign)
    return JsonResponse(
        {
            "state": campaign.state,
            "state_label": campaign.get_state_display(),
            "running": campaign.is_running,
            "started": counts.handed_over > 0 or campaign.state != CampaignState.QUEUED,
            "percent": campaign.progress_percent,
            "accepted": campaign.accepted_count,
            "rejected": campaign.rejected_count,
            "halt": _halt_text(campaign),
            **counts.as_dict(),
            "sending_text": _sending_text(counts),
            "delivery_text": _delivery_text(counts),
        }
    )


def _recently_sent_text(count: int) -> str:
    if not count:
        return ""
    return ngettext(
        "%(count)s number of this campaign was sent a message by another campaign in the last "
        "24 hours: it will get a second message if you send.",
        "%(count)s numbers of this campaign were sent a message by another campaign in the last "
        "24 hours: they will get a second message if you send.",
        count,
    ) % {"count": intcomma(count)}


def _sending_text(counts: services.CampaignCounts) -> str:
    text = ngettext(
        "%(done)s of %(total)s number handed to the provider",
        "%(done)s of %(total)s numbers handed to the provider",
        counts.total,
    ) % {"done": intcomma(counts.handed_over), "total": intcomma(counts.total)}
    if counts.cancelled:
        text += " " + ngettext(
            "(%(count)s cancelled: it will not be sent)",
            "(%(count)s cancelled: they will not be sent)",
            counts.cancelled,
        ) % {"count": intcomma(counts.cancelled)}
    return text


def _delivery_text(counts: services.CampaignCounts) -> str:
    accepted = counts.sent + counts.reported
    return ngettext(
        "%(done)s of %(total)s accepted number has its final status",
        "%(done)s of %(total)s accepted numbers have their final status",
        accepted,
    ) % {"done": intcomma(counts.reported), "total": intcomma(accepted)}


def _halt_text(campaign: Campaign) -> str:
    if not campaign.halt_code:
        return ""
    return texts.halt_text(campaign.halt_code, campaign.halt_detail)


@needs()
def campaign_problems_csv(request: StaffRequest, pk: int) -> StreamingHttpResponse:
    campaign = get_object_or_404(Campaign, pk=pk)
    problems = ImportProblem.objects.filter(campaign=campaign).order_by("line_number", "id")
    # Tuples, not model instances (a 20 MB file of bad lines has 1.7 million); the reason is
    # worded here, in the reader's language, so COPY cannot write this export.
    rows = (
        [line_number, mobile, texts.code_text(code, params)]
        for line_number, mobile, code, params in problems.values_list(
            "line_number", "mobile", "code", "params"
        ).iterator(chunk_size=2000)
    )
    lines = csv_export.csv_lines([_("Line"), _("Mobile as written"), _("Reason")], rows)
    response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="campaign-{campaign.pk}-bad-lines.csv"'
    return response


def _act(
    request: StaffRequest, pk: int, action: Callable[[Campaign], object], success: str
) -> HttpResponse:
    campaign = get_object_or_404(Campaign, pk=pk)
    try:
        action(campaign)
    except services.CampaignStateError:
        messages.error(request, _("The campaign has changed in the meantime; nothing was done."))
    else:
        messages.success(request, success)
    return redirect("sms:campaign", pk=pk)


@needs(SEND)
@require_POST
def campaign_confirm(request: StaffRequest, pk: int) -> HttpResponse:
    campaign = get_object_or_404(Campaign.objects.select_related("template"), pk=pk)
    user = staff_user(request)
    form = ScheduleForm(
        request.POST, can_override=may_override_window(user, campaign.template.type)
    )
    if not form.is_valid():
        return _detail(request, pk, schedule_form=form)
    start_at = form.start_time()
    try:
        services.confirm_campaign(
            campaign, user, start_at=start_at, override_window=form.override()
        )
    except services.CampaignStateError:
        messages.error(request, _("The campaign has changed in the meantime; nothing was done."))
    except services.StartTimeError as error:
        # The time passed between the form's check and the service's own.
        form.add_error("start_at", str(error))
        return _detail(request, pk, schedule_form=form)
    except services.WindowOverrideNotAllowed:
        raise PermissionDenied from None
    else:
        messages.success(request, confirmed_text(start_at))
    return redirect("sms:campaign", pk=pk)


def confirmed_text(start_at: datetime | None) -> str:
    """The success message of a confirmation, from the campaign page or the send page."""
    if start_at is None:
        return _("Confirmed: the campaign is being sent in the background.")
    return _("Scheduled: the campaign starts at %(time)s (Asia/Shanghai time).") % {
        "time": f"{timezone.localtime(start_at):%Y-%m-%d %H:%M}"
    }


@needs(SEND)
@require_POST
def campaign_reschedule(request: StaffRequest, pk: int) -> HttpResponse:
    campaign = get_object_or_404(Campaign, pk=pk)
    form = RescheduleForm(request.POST)
    if not form.is_valid():
        return _detail(request, pk, reschedule_form=form)
    start_at = form.cleaned_data["start_at"]
    try:
        services.reschedule_campaign(campaign, start_at)
    except services.StartTimeError as error:
        # The time passed between the form's check and the service's own.
        form.add_error("start_at", str(error))
        return _detail(request, pk, reschedule_form=form)
    except services.CampaignStateError:
        messages.error(
            request,
            _("The campaign has already started or was cancelled; it was not rescheduled."),
        )
    else:
        messages.success(
            request,
            _("Rescheduled: the campaign starts at %(time)s (Asia/Shanghai time).")
            % {"time": f"{timezone.localtime(start_at):%Y-%m-%d %H:%M}"},
        )
    return redirect("sms:campaign", pk=pk)


@needs(SEND)
@require_http_methods(["GET", "POST"])
def campaign_discard(request: StaffRequest, pk: int) -> HttpResponse:
    campaign = get_object_or_404(Campaign, pk=pk)
    if campaign.state != CampaignState.DRAFT:
        messages.error(request, _("Only a campaign waiting for confirmation can be discarded."))
        return redirect("sms:campaign", pk=pk)
    if not confirmed(request):
        return confirmation_page(request, _discard_question(campaign))
    try:
        services.discard_campaign(campaign)
    except services.CampaignStateError:
        messages.error(request, _("Only a campaign waiting for confirmation can be discarded."))
        return redirect("sms:campaign", pk=pk)
    if campaign.source == CampaignSource.IMPORT:
        messages.success(request, _("The import was discarded; nothing was sent."))
        return redirect("sms:import")
    messages.success(request, _("The draft was discarded; nothing was sent."))
    return redirect("sms:send")


def _discard_question(campaign: Campaign) -> Confirmation:
    count = campaign.total_numbers
    numbers = {"count": intcomma(count), "id": campaign.pk}
    if campaign.source == CampaignSource.IMPORT:
        question = ngettext(
            "Discard the import of campaign #%(id)s and its %(count)s number to send?",
            "Discard the import of campaign #%(id)s and its %(count)s numbers to send?",
            count,
        ) % numbers
        gone = _("The uploaded file and its report of bad lines are deleted.")
    else:
        question = ngettext(
            "Discard the draft of campaign #%(id)s and its %(count)s number to send?",
            "Discard the draft of campaign #%(id)s and its %(count)s numbers to send?",
            count,
        ) % numbers
        gone = _("The previewed recipients are deleted.")
    return Confirmation(
        question=question,
        consequences=[_("Nothing is sent."), gone, _("This cannot be undone.")],
        button=ngettext("Discard %(count)s number", "Discard %(count)s numbers", count)
        % numbers,
        back_url=reverse("sms:campaign", args=[campaign.pk]),
    )


@needs(SEND)
@require_http_methods(["GET", "POST"])
def campaign_cancel(request: StaffRequest, pk: int) -> HttpResponse:
    if not confirmed(request):
        campaign = get_object_or_404(Campaign, pk=pk)
        # Refused before the question, so that nobody confirms what the service would refuse;
        # the service checks again (the state may change while the page is open).
        if not campaign.cancellable:
            messages.error(
                request, _("The campaign is not being sent; there is nothing to cancel.")
            )
            return redirect("sms:campaign", pk=pk)
        return confirmation_page(request, _cancel_question(campaign))
    return _act(
        request, pk, services.cancel_campaign, _("Cancelled: numbers not yet sent will not be.")
    )


def _cancel_question(campaign: Campaign) -> Confirmation:
    # Numbers not handed to the provider yet: exactly those the cancel stops.
    count = services.campaign_counts(campaign).queued
    numbers = {"count": intcomma(count), "id": campaign.pk}
    return Confirmation(
        question=ngettext(
            "Cancel the %(count)s number not yet sent of campaign #%(id)s?",
            "Cancel the %(count)s numbers not yet sent of campaign #%(id)s?",
            count,
        ) % numbers,
        consequences=[
            _("Numbers already handed to the provider are not affected."),
            _("This cannot be undone: a cancelled campaign cannot be resumed."),
        ],
        button=ngettext("Cancel %(count)s number", "Cancel %(count)s numbers", count) % numbers,
        back_url=reverse("sms:campaign", args=[campaign.pk]),
    )


@needs(SEND)
@require_POST
def campaign_resume(request: StaffRequest, pk: int) -> HttpResponse:
    return _act(request, pk, services.resume_campaign, _("Resumed: sending goes on."))
