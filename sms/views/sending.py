"""The send page (preview per number, then send) and the file import page."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from backoffice.annotations import StaffRequest
from backoffice.security.access import staff_user
from sms import services, texts
from sms.forms import ImportForm, ScheduleForm, SendForm
from sms.models import Campaign, CampaignSource, CampaignState
from sms.views.access import SEND, may_override_window, needs
from sms.views.campaigns import confirmed_text

MAX_RECIPIENTS = services.MAX_FORM_RECIPIENTS


@needs(SEND)
def send(request: StaffRequest) -> HttpResponse:
    """GET: the form. POST `preview`: judge every number and store them as a draft.
    POST `send`: confirm that draft, now or at the chosen time (once: a repeated submission
    sends nothing more)."""
    form = SendForm(request.POST or None, initial={"template": request.GET.get("template")})
    preview = None
    draft = None
    blocked: list[str] = []
    schedule = ScheduleForm()
    if request.method == "POST" and form.is_valid():
        sending = "send" in request.POST
        previous = _own_draft(request, request.POST.get("draft", ""))
        if sending and previous is not None and previous.state != CampaignState.DRAFT:
            return _already_confirmed(request, previous)
        preview = _judge(form)
        can_override = may_override_window(request.user, form.cleaned_data["template"].type)
        schedule = ScheduleForm(request.POST if sending else None, can_override=can_override)
        if sending and preview is not None:
            problem = _why_not_send(form, previous, preview)
            if problem is None and schedule.is_valid():
                assert previous is not None  # without a draft there is a problem to show
                return _confirm(request, previous, schedule)
            if problem is not None:
                form.add_error(*problem)
        blocked = _why_not_offered(preview)
        offered = preview.good if preview is not None and not blocked else None
        draft = services.redraft_recipients(
            previous.pk if previous is not None else None, form.cleaned_data["template"],
            offered, user=staff_user(request))
    return render(
        request,
        "sms/send.html",
        {"form": form, "preview": preview, "draft": draft, "bad_lines": _bad_rows(preview),
         "suppressed_lines": _suppressed_rows(preview), "blocked": blocked,
         "schedule_form": schedule, "window": services.marketing_window()},
    )


def _why_not_offered(preview: services.RecipientsPreview | None) -> list[str]:
    """Why the previewed recipients get no Send button, each with what to do; none: they do.

    Nothing is stored for a preview that cannot be sent, so no campaign waits for a
    confirmation that can never come.
    """
    if preview is None:
        return []
    reasons: list[str] = []
    if preview.bad:
        count = len(preview.bad)
        reasons.append(ngettext(
            "%(count)s number cannot be sent: correct or remove it (it is listed below), then "
            "preview again.",
            "%(count)s numbers cannot be sent: correct or remove them (they are listed below), "
            "then preview again.",
            count,
        ) % {"count": count})
    elif not preview.good and preview.suppressed:
        reasons.append(
            _("Every number given is on the suppression list: there is nothing to send.")
        )
    elif not preview.good:
        reasons.append(_("Give at least one mobile number, then preview again."))
    # Not a reason: the quota and the template's status as we last saw them. Both may be out of
    # date, so they are warnings, and the provider's answer decides (a refusal halts the
    # campaign, which staff resume once the cause is gone).
    return reasons


def _why_not_send(
    form: SendForm, previous: Campaign | None, preview: services.RecipientsPreview
) -> tuple[str | None, str] | None:
    """(field, message) saying why the form cannot be sent as it stands; None when it can."""
    if previous is None:
        return None, _("The preview has expired; check it again, then send.")
    if preview.bad:
        return "recipients", _("Correct or remove the numbers marked below, then send.")
    if not preview.good:
        return "recipients", _("Give at least one mobile number.")
    if not services.same_recipients(previous, form.cleaned_data["template"], preview.good):
        return None, _(
            "The recipients changed after the preview; check the new preview, then send."
        )
    return None


def _judge(form: SendForm) -> services.RecipientsPreview | None:
    """Every recipient judged, or None (with the error on the form) when there are too many."""
    preview = services.preview_recipients(
        form.cleaned_data["template"], form.cleaned_data["recipients"], form.shared_values()
    )
    if len(preview.good) + len(preview.bad) > MAX_RECIPIENTS:
        form.add_error(
            "recipients",
            _("At most %(limit)s numbers can be sent from this page; import a file instead.")
            % {"limit": MAX_RECIPIENTS},
        )
        return None
    return preview


def _own_draft(request: StaffRequest, raw_id: str) -> Campaign | None:
    """The send-page campaign this user previewed, whatever its state now."""
    if not (raw_id.isascii() and raw_id.isdigit()):
        return None
    return Campaign.objects.filter(
        pk=int(raw_id), source=CampaignSource.FORM, created_by=staff_user(request)
    ).first()


def _confirm(request: StaffRequest, campaign: Campaign, schedule: ScheduleForm) -> HttpResponse:
    start_at = schedule.start_time()
    try:
        services.send_draft(
            campaign,
            user=staff_user(request),
            start_at=start_at,
            override_window=schedule.override(),
        )
    except services.CampaignStateError:
        # The same form submitted twice at once: the other submission confirmed it.
        return _already_confirmed(request, campaign)
    except services.StartTimeError as error:
        # The time passed between the form's check and the service's own: the draft stays,
        # and its campaign page offers the same choice again.
        messages.error(request, str(error))
        return redirect("sms:campaign", pk=campaign.pk)
    if start_at is not None:
        messages.success(request, confirmed_text(start_at))
    return redirect("sms:campaign", pk=campaign.pk)


def _already_confirmed(request: StaffRequest, campaign: Campaign) -> HttpResponse:
    messages.info(
        request, _("This send was already confirmed; nothing was sent a second time.")
    )
    return redirect("sms:campaign", pk=campaign.pk)


def _bad_rows(preview: services.RecipientsPreview | None) -> list[dict[str, object]]:
    return _rows(preview.bad if preview is not None else [])


def _suppressed_rows(preview: services.RecipientsPreview | None) -> list[dict[str, object]]:
    return _rows(preview.suppressed if preview is not None else [])


def _rows(lines: list[services.BadLine]) -> list[dict[str, object]]:
    return [
        {
            "line": line.line_number,
            "mobile": line.mobile,
            "reasons": [texts.problem_text(problem) for problem in line.problems],
        }
        for line in lines
    ]


@needs(SEND)
def import_file(request: StaffRequest) -> HttpResponse:
    """Upload and validate: the file becomes a campaign waiting for confirmation."""
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = services.store_upload(
                form.cleaned_data["template"], form.cleaned_data["file"], user=staff_user(request)
            )
        except services.ImportFileError as error:
            form.add_error("file", str(error))
        else:
            return redirect("sms:campaign", pk=campaign.pk)
    return render(request, "sms/import.html", {"form": form})
