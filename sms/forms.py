"""Forms of the SMS pages; every check names its field and is translated."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from sms import mobiles, rules, services, texts
from sms.models import (
    MessageStatus,
    MessageType,
    ReportType,
    SignLocation,
    SuppressionReason,
    Template,
)
from sms.services import NOTE_MAX_LENGTH, UNKNOWN_STATUS, SuppressionError, normalise

VARIABLE_FIELDS = ("var1", "var2", "var3", "var4")


def usable_templates() -> QuerySet[Template]:
    return Template.objects.filter(removed_at__isnull=True).order_by("-provider_id")


class TemplateChoiceField(forms.ModelChoiceField[Template]):
    def label_from_instance(self, obj: Template) -> str:
        return f"#{obj.provider_id} {obj.title} ({obj.temp_sign}, {obj.status_label})"


class TemplateForm(forms.Form):
    """Create or edit a template; the rules of `sms.rules` are the validation."""

    # The inputs stop typing at the spec's limits; a longer value (pasted, or sent without the
    # page) is still named by the rules in `clean`, with the spec's own wording.
    title = forms.CharField(
        label=_("Title"), strip=False,
        widget=forms.TextInput(attrs={"maxlength": rules.TITLE_MAX_LENGTH}),
    )
    temp_sign = forms.CharField(
        label=_("Signature"), strip=False,
        widget=forms.TextInput(attrs={"maxlength": rules.SIGNATURE_MAX_LENGTH}),
    )
    content = forms.CharField(
        label=_("Content"), strip=False, widget=forms.Textarea(attrs={"rows": 5})
    )
    sign_location = forms.ChoiceField(label=_("Signature position"), choices=SignLocation.choices)
    type = forms.ChoiceField(label=_("Type"), choices=MessageType.choices)
    report_type = forms.ChoiceField(label=_("Channel"), choices=ReportType.choices)
    accept_failing = forms.BooleanField(
        label=_("I accept that every message sent with this template will fail"),
        required=False,
        help_text=_(
            "Only for a marketing template without 退订回T, 退订回TD or 退订回N at the end: the "
            "provider stores it, but fails every message sent with it."
        ),
    )

    respect_suppression = forms.BooleanField(
        label=_("Skip numbers on the suppression list"),
        required=False,
        help_text=_(
            "For an industry template; a marketing template always skips them."
        ),
    )

    def __init__(
        self, *args: Any, editing: bool = False, marketing: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.warnings: list[str] = []
        if editing:
            # The provider's edit call cannot change these two.
            for name in ("type", "report_type"):
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Fixed once the template exists.")
        if marketing:
            # A marketing template always respects the list: nothing to choose (the page says
            # so in words instead).
            del self.fields["respect_suppression"]

    def respects_suppression(self) -> bool | None:
        """The industry template's choice; None for a marketing one (it always respects)."""
        if self.cleaned_data.get("type") != MessageType.INDUSTRY:
            return None
        return bool(self.cleaned_data.get("respect_suppression"))

    def draft(self) -> rules.TemplateDraft:
        data = self.cleaned_data
        return rules.TemplateDraft(
            title=data.get("title", ""),
            temp_sign=data.get("temp_sign", ""),
            content=data.get("content", ""),
            sign_location=data.get("sign_location", ""),
            type=data.get("type", ""),
            report_type=data.get("report_type", ""),
        )

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        cleaned = self.cleaned_data
        # The rules run even when a field already failed (a missing title, say), so that
        # every other field's problem is listed at once; a field named already is skipped.
        failed = set(self.errors)
        for problem in rules.check_template(self.draft()):
            field = problem.field if problem.field in self.fields else None
            if field is not None and field in failed:
                continue
            if problem.is_error:
                self.add_error(field, texts.problem_text(problem))
            elif problem.code == rules.UNSUBSCRIBE_MISSING and not cleaned.get("accept_failing"):
                # Allowed by the provider, but useless: refused unless knowingly accepted.
                self.add_error("accept_failing", texts.problem_text(problem))
            else:
                self.warnings.append(texts.problem_text(problem))
        return cleaned


class SendForm(forms.Form):
    template = TemplateChoiceField(label=_("Template"), queryset=Template.objects.none())
    recipients = forms.CharField(
        label=_("Recipients"),
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_(
            "One number per line, or separated by commas. With a template that has variables: "
            "one recipient per line as mobile,var1,var2,… (as in an import file)."
        ),
    )
    var1 = forms.CharField(label="{$var1}", required=False, max_length=rules.MAX_BILLED_LENGTH)
    var2 = forms.CharField(label="{$var2}", required=False, max_length=rules.MAX_BILLED_LENGTH)
    var3 = forms.CharField(label="{$var3}", required=False, max_length=rules.MAX_BILLED_LENGTH)
    var4 = forms.CharField(label="{$var4}", required=False, max_length=rules.MAX_BILLED_LENGTH)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(TemplateChoiceField, self.fields["template"]).queryset = usable_templates()

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        # The values sent (shared, or per line after each number) against the merchant's
        # word list, before anything reaches the provider.
        texts = {name: str(data.get(name) or "") for name in (*VARIABLE_FIELDS, "recipients")}
        found = services.blocked_word_in(**texts)
        if found is not None:
            word, field = found
            self.add_error(field, _("“%(word)s” is on the merchant's word list: it may not be "
                                    "sent.") % {"word": word})
        return data

    def shared_values(self) -> list[str]:
        return [self.cleaned_data.get(name, "").strip() for name in VARIABLE_FIELDS]


class ImportForm(forms.Form):
    template = TemplateChoiceField(label=_("Template"), queryset=Template.objects.none())
    file = forms.FileField(
        label=_("File"),
        help_text=_(
            "txt or csv, comma separated: column 1 the mobile number, columns 2-5 the values of "
            "{$var1} to {$var4}. UTF-8 or GBK, with or without BOM (files saved by Excel work)."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(TemplateChoiceField, self.fields["template"]).queryset = usable_templates()


# What a datetime-local input sends, and what a person types where the browser has none.
START_INPUT_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]


def start_at_field(required: bool) -> forms.DateTimeField:
    # Read in the current time zone: settings.TIME_ZONE, the provider's (Asia/Shanghai).
    return forms.DateTimeField(
        label=_("Start at (Asia/Shanghai time)"),
        required=required,
        input_formats=START_INPUT_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("In the future, and at most 90 days ahead."),
    )


class ScheduleForm(forms.Form):
    """On confirming: send now or at a chosen time; and, for staff who may, outside the
    marketing sending window. The override field exists only for a marketing template and a
    person with `sms.override_quiet_hours`."""

    when = forms.ChoiceField(
        label=_("When"),
        choices=[("now", _("Send now")), ("later", _("At a date and time"))],
        initial="now",
        widget=forms.RadioSelect,
        required=False,  # left out (an older page, a script): send now, as before
    )
    start_at = start_at_field(required=False)
    override_window = forms.BooleanField(required=False)

    def __init__(self, *args: Any, can_override: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if can_override:
            self.fields["override_window"].label = _(
                "Send outside the marketing sending window (%(window)s) for this campaign"
            ) % {"window": services.marketing_window()}
        else:
            del self.fields["override_window"]

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        cleaned = self.cleaned_data
        if cleaned.get("when") != "later":
            cleaned["start_at"] = None
        elif "start_at" in cleaned:  # absent: the field has its own error already
            start_at = cleaned["start_at"]
            if start_at is None:
                self.add_error("start_at", _("Give the date and time to start at."))
            else:
                try:
                    services.check_start_time(start_at)
                except services.StartTimeError as error:
                    self.add_error("start_at", str(error))
        return cleaned

    def start_time(self) -> datetime | None:
        return self.cleaned_data.get("start_at")

    def override(self) -> bool:
        return bool(self.cleaned_data.get("override_window"))


class RescheduleForm(forms.Form):
    start_at = start_at_field(required=True)

    def clean_start_at(self) -> datetime:
        start_at: datetime = self.cleaned_data["start_at"]
        try:
            services.check_start_time(start_at)
        except services.StartTimeError as error:
            raise forms.ValidationError(str(error)) from None
        return start_at


def status_choices() -> list[tuple[str, object]]:
    return [("", _("Any status")), *MessageStatus.choices, (UNKNOWN_STATUS, _("Unknown status"))]


class ReportFilterForm(forms.Form):
    mobile = forms.CharField(
        label=_("Mobile"),
        required=False,
        max_length=20,
        help_text=_("A whole number, or its first digits (for example 138001)."),
    )
    status = forms.ChoiceField(label=_("Status"), required=False, choices=status_choices)
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    campaign = forms.IntegerField(label=_("Campaign"), required=False, min_value=1)

    def clean_mobile(self) -> str:
        raw = self.cleaned_data["mobile"].strip()
        if not raw:
            return ""
        try:
            return mobiles.normalize_mobile(raw)
        except mobiles.InvalidMobileError as error:
            # Fewer than 11 digits that can begin a number: a search by the start of it.
            prefix = mobiles.mobile_prefix(raw)
            if prefix is not None:
                return prefix
            raise forms.ValidationError(texts.problem_text(error.problem)) from None

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        cleaned = self.cleaned_data
        start, end = cleaned.get("date_from"), cleaned.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("The end date is before the start date."))
        return cleaned


class SuppressionAddForm(forms.Form):
    mobile = forms.CharField(label=_("Mobile"), max_length=20)
    reason = forms.ChoiceField(label=_("Reason"), choices=SuppressionReason.choices)
    note = forms.CharField(label=_("Note"), required=False, max_length=NOTE_MAX_LENGTH)

    def clean_mobile(self) -> str:
        try:
            return normalise(self.cleaned_data["mobile"])
        except SuppressionError as error:
            raise forms.ValidationError(str(error)) from None


class SuppressionImportForm(forms.Form):
    file = forms.FileField(
        label=_("File"),
        help_text=_(
            "txt or csv: column 1 the mobile number, column 2 an optional note for that number. "
            "UTF-8 or GBK, with or without BOM (files saved by Excel work)."
        ),
    )
    reason = forms.ChoiceField(
        label=_("Reason"), choices=SuppressionReason.choices,
        initial=SuppressionReason.UNSUBSCRIBED,
    )
    note = forms.CharField(
        label=_("Note"), required=False, max_length=NOTE_MAX_LENGTH,
        help_text=_("For every number of the file whose line gives no note of its own."),
    )


class SuppressionFilterForm(forms.Form):
    number = forms.CharField(
        label=_("Number starts with"), required=False, max_length=14,
        help_text=_("The first digits of a number, or all 11."),
    )
    reason = forms.ChoiceField(
        label=_("Reason"), required=False,
        choices=[("", _("Any reason")), *SuppressionReason.choices],
    )

    def clean_number(self) -> str:
        raw = "".join(self.cleaned_data["number"].split())
        if raw.startswith("+86"):
            raw = raw[3:]
        if raw and not (raw.isascii() and raw.isdigit()):
            raise forms.ValidationError(_("Type digits only (the start of a mobile number)."))
        if len(raw) > 11:
            raise forms.ValidationError(_("A mobile number has 11 digits; type at most 11."))
        return raw


class RespectSuppressionForm(forms.Form):
    respect_suppression = forms.BooleanField(
        label=_("Skip numbers on the suppression list"), required=False
    )
