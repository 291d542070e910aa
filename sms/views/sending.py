"""The send page (preview per number, then send) and the file import page."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from sms import client as api
from sms import importing, services, texts
from sms.forms import ImportForm, SendForm
from sms.views.access import SEND, require

MAX_RECIPIENTS = services.MAX_FORM_RECIPIENTS


@require(SEND)
def send(request: HttpRequest) -> HttpResponse:
    """GET: the form. POST `preview`: judge every number. POST `send`: judge again and send."""
    form = SendForm(request.POST or None, initial={"template": request.GET.get("template")})
    preview = None
    if request.method == "POST" and form.is_valid():
        template = form.cleaned_data["template"]
        preview = services.preview_recipients(
            template, form.cleaned_data["recipients"], form.shared_values()
        )
        if len(preview.good) + len(preview.bad) > MAX_RECIPIENTS:
            form.add_error(
                "recipients",
                _("At most %(limit)s numbers can be sent from this page; import a file instead.")
                % {"limit": MAX_RECIPIENTS},
            )
            preview = None
        elif "send" in request.POST:
            if preview.bad:
                form.add_error(
                    "recipients", _("Correct or remove the numbers marked below, then send.")
                )
            elif not preview.good:
                form.add_error("recipients", _("Give at least one mobile number."))
            else:
                return _send(request, template, preview)
    return render(
        request,
        "sms/send.html",
        {"form": form, "preview": preview, "bad_lines": _bad_rows(preview)},
    )


def _send(request: HttpRequest, template, preview) -> HttpResponse:  # type: ignore[no-untyped-def]
    try:
        campaign = services.send_recipients(template, preview.good, user=request.user)
    except (api.SmsError, services.ProviderNotConfigured) as error:
        messages.error(request, texts.failure_text(error))
        return redirect("sms:send")
    return redirect("sms:campaign", pk=campaign.pk)


def _bad_rows(preview) -> list[dict[str, object]]:  # type: ignore[no-untyped-def]
    if preview is None:
        return []
    return [
        {
            "line": line.line_number,
            "mobile": line.mobile,
            "reasons": [texts.problem_text(problem) for problem in line.problems],
        }
        for line in preview.bad
    ]


@require(SEND)
def import_file(request: HttpRequest) -> HttpResponse:
    """Upload and validate: the file becomes a campaign waiting for confirmation."""
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = services.store_upload(
                form.cleaned_data["template"], form.cleaned_data["file"], user=request.user
            )
        except importing.ImportFileError as error:
            form.add_error("file", str(error))
        else:
            return redirect("sms:campaign", pk=campaign.pk)
    return render(request, "sms/import.html", {"form": form})
