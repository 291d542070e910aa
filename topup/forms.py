"""Forms of the top-up staff pages; the rules themselves live in services."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, cast

from django import forms
from django.conf import settings
from django.core.validators import MaxValueValidator
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from topup import services, texts
from topup.models import (
    CARRIER_CHOICES,
    ApiScope,
    OrderSource,
    OrderState,
    ProdStandardChoice,
    ProdTimeChoice,
    Product,
)


class SingleTopupForm(forms.Form):
    mobile = forms.CharField(
        label=_("Mobile number"), max_length=20,
        widget=forms.TextInput(attrs={"autocomplete": "off", "inputmode": "tel",
                                      "placeholder": "13800138000"}))
    product = forms.ModelChoiceField(
        label=_("Product"), queryset=Product.objects.filter(active=True),
        empty_label=_("Choose a product"))
    prodtime = forms.TypedChoiceField(
        label=_("Data period"), choices=ProdTimeChoice.choices, coerce=int,
        initial=ProdTimeChoice.ALL_TIME)
    prodstandard = forms.TypedChoiceField(
        label=_("Networks"), choices=ProdStandardChoice.choices, coerce=int,
        initial=ProdStandardChoice.ALL_NETWORKS)
    allow_other_carrier = forms.BooleanField(
        label=_("The number has moved to another carrier"), required=False,
        help_text=_("Allows a product of another carrier than the number's range."))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Replacing label_from_instance on the instance is Django's documented way to label
        # a ModelChoiceField's options.
        field = cast("forms.ModelChoiceField[Product]", self.fields["product"])
        field.label_from_instance = lambda obj: _(  # type: ignore[method-assign]
            "%(code)s · %(size)s MB · %(price)s yuan") % {
                "code": obj.code, "size": obj.size_mb, "price": obj.price}

    def clean_mobile(self) -> str:
        # Checked on its own, so that a bad number is reported together with the other
        # fields' problems (a missing product, say), not only once they are mended.
        raw: str = self.cleaned_data["mobile"]
        try:
            services.check_mobile(raw)
        except services.OrderInputError as error:
            raise forms.ValidationError(error.message) from None
        return raw

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        if self.errors:
            return data  # each field's own problem is already listed
        request = services.OrderRequest(
            mobile=data["mobile"], product_code=data["product"].code,
            prodtime=data["prodtime"], prodstandard=data["prodstandard"],
            allow_other_carrier=data["allow_other_carrier"])
        try:
            services.check_request(request)
        except services.OrderInputError as error:
            field = error.field if error.field in self.fields else None
            self.add_error(field, error.message)
        data["order_request"] = request
        return data


class BulkUploadForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_("One top-up per line: mobile number, product code (e.g. "
                    "13800138000,CMCC_10). UTF-8 or GB18030; a header line is allowed."),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv,.txt"}))


class ManualConfirmForm(forms.Form):
    outcome = forms.ChoiceField(
        label=_("Outcome"), widget=forms.RadioSelect,
        choices=[(OrderState.SUCCESS, _("The top-up succeeded")),
                 (OrderState.FAILED, _("The top-up failed"))])
    reason = forms.CharField(
        label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=1000,
        help_text=_("Who confirmed it and how, e.g. \"provider support, ticket 1234\"."))

    def clean_reason(self) -> str:
        # Checked here too (the service checks again), so that the confirmation page is only
        # shown for a verdict that will be accepted.
        reason = cast(str, self.cleaned_data["reason"]).strip()
        if len(reason) < services.MIN_REASON_LENGTH:
            raise forms.ValidationError(texts.reason_too_short_text(services.MIN_REASON_LENGTH))
        return reason


class OrderFilterForm(forms.Form):
    q = forms.CharField(
        label=_("Mobile or order number"), required=False, max_length=64,
        help_text=_("Part of a mobile number, the provider's order number or part of it, or "
                    "our order number from its start (at least its first 14 characters)."))
    state = forms.ChoiceField(label=_("State"), required=False,
                              choices=[("", _("any"))] + list(OrderState.choices))
    carrier = forms.ChoiceField(label=_("Carrier"), required=False,
                                choices=[("", _("any"))] + CARRIER_CHOICES)
    product = forms.ModelChoiceField(label=_("Product"), required=False,
                                     queryset=Product.objects.all(), empty_label=_("any"))
    source = forms.ChoiceField(label=_("Placed through"), required=False,
                               choices=[("", _("any"))] + list(OrderSource.choices))
    date_from = forms.DateField(label=_("From"), required=False,
                                widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(label=_("To"), required=False,
                              widget=forms.DateInput(attrs={"type": "date"}))
    batch = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and end < start:
            self.add_error("date_to", _("The end date is before the start date."))
        return data


class ProductForm(forms.ModelForm[Product]):
    class Meta:
        model = Product
        fields = ["code", "carrier", "size_mb", "price", "active"]


class ReportRunForm(forms.Form):
    day = forms.DateField(label=pgettext_lazy("top-up report date", "Day"),
                          widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["day"].initial = timezone.localdate() - timedelta(days=1)

    def clean_day(self) -> date:
        day: date = self.cleaned_data["day"]
        if day > timezone.localdate():
            raise forms.ValidationError(_("A report can only cover a day that has begun."))
        return day


class ApiTokenForm(forms.Form):
    """A new merchant API token: its name, scopes and lifetime (the key is made by the
    service and shown once)."""

    name = forms.CharField(label=pgettext_lazy("label", "Name"), max_length=100,
                           help_text=_("Which system uses it, e.g. ERP production."))
    scopes = forms.MultipleChoiceField(label=_("Scopes"), choices=ApiScope.choices,
                                       widget=forms.CheckboxSelectMultiple,
                                       error_messages={"required": _("Choose at least one scope.")})
    days = forms.IntegerField(label=_("Valid for (days)"), min_value=1)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["days"].initial = settings.API_TOKEN_DAYS
        cast(forms.IntegerField, self.fields["days"]).max_value = settings.API_TOKEN_MAX_DAYS
        self.fields["days"].validators.append(MaxValueValidator(settings.API_TOKEN_MAX_DAYS))
