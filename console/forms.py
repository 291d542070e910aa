"""Forms of the services pages: a storage service, an origin address, a domain, mirror
storage."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from console.models import (
    DOMAIN_NAME,
    MIRROR_MIN_CACHE_SECONDS,
    Domain,
    MirrorStatus,
    Origin,
    Service,
    ServiceKind,
)

# `http(s)://host[:port]`, no path, no user, no query: what PUT /buckets/origins takes.
ORIGIN_ADDRESS = re.compile(
    r"^https?://(?P<host>[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)(?::(?P<port>\d{1,5}))?$")


class StorageServiceForm(forms.ModelForm[Service]):
    """Add or change a storage service. The password field is always empty when shown: leave
    it empty to keep the stored one (it is never shown again once saved)."""

    operator_password = forms.CharField(
        label=_("operator password"), required=False, strip=False,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
        help_text=_("Leave empty to keep the stored password."))

    # Not a model field of the form: the instance must never take an empty password.
    field_order = ["name", "label", "operator", "operator_password", "line", "groups"]

    class Meta:
        model = Service
        fields = ["name", "label", "operator", "line", "groups"]
        widgets = {"groups": forms.CheckboxSelectMultiple}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["operator"].required = True
        if self.instance.pk:
            # A service's name is its bucket at the provider: it cannot change.
            self.fields["name"].disabled = True
        else:
            self.fields["operator_password"].required = True
            self.fields["operator_password"].help_text = ""
        if self.instance.pk and not self.instance.operator_password:
            self.fields["operator_password"].help_text = _("No password is stored yet.")

    def clean_operator_password(self) -> str:
        password = str(self.cleaned_data.get("operator_password") or "")
        if not password and self.instance.pk and not self.instance.operator_password:
            raise ValidationError(_("This service has no password yet: give one."))
        return password

    def changed_values(self) -> dict[str, Any]:
        """What to save: every edited field, the password only when one was typed."""
        values = {name: self.cleaned_data[name]
                  for name in ("label", "operator", "line", "groups")}
        if not self.instance.pk:
            values["name"] = self.cleaned_data["name"]
        if self.cleaned_data.get("operator_password"):
            values["operator_password"] = self.cleaned_data["operator_password"]
        return values


class OriginForm(forms.ModelForm[Origin]):
    class Meta:
        model = Origin
        fields = ["address", "weight", "backup"]

    def __init__(self, *args: Any, service: Service, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.service = service
        self.fields["weight"].help_text = _("1 to 100: the share of requests among the origins.")
        self.fields["weight"].widget.attrs.update({"min": 1, "max": 100})

    def clean_address(self) -> str:
        address = str(self.cleaned_data["address"]).strip()
        match = ORIGIN_ADDRESS.match(address)
        if match is None or (match["port"] and not 1 <= int(match["port"]) <= 65535):
            raise ValidationError(_(
                "Write http://host or https://host, with an optional :port and no path, e.g. "
                "https://www.example.com:8443."))
        address = address.lower()
        if self.service.origins.filter(address=address).exists():
            raise ValidationError(_("This service has this origin already."))
        return address


class DomainForm(forms.Form):
    name = forms.CharField(label=_("domain"), max_length=253)

    def clean_name(self) -> str:
        name = str(self.cleaned_data["name"]).strip().lower().rstrip(".")
        DOMAIN_NAME(name)
        holder = Domain.objects.filter(name=name).select_related("service").first()
        if holder is not None:
            raise ValidationError(
                _("This domain is already bound to the service %(service)s."),
                params={"service": holder.service.name})
        return name


class MirrorForm(forms.Form):
    """Mirror storage switched on: the storage service it copies into and the cache time of
    mirrored files, which the docs want above 24 hours. Pausing and switching off ask
    nothing: the form then has no fields."""

    storage_bucket = forms.ModelChoiceField(
        label=_("copy into the storage service"), queryset=Service.objects.none(),
        empty_label=None)
    cache_seconds = forms.IntegerField(
        label=_("cache time of mirrored files (seconds)"), initial=7 * 86400,
        help_text=_("More than 86,400 seconds (24 hours); 604,800 is a week."))

    def __init__(self, *args: Any, service: Service, to: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if to != MirrorStatus.ON:
            self.fields.clear()
            return
        field = self.fields["storage_bucket"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Service.objects.filter(kind=ServiceKind.STORAGE).order_by("name")
        if service.mirror_bucket_id:
            field.initial = service.mirror_bucket_id
        if service.mirror_cache_seconds:
            self.fields["cache_seconds"].initial = service.mirror_cache_seconds

    def clean_cache_seconds(self) -> int:
        seconds = int(self.cleaned_data["cache_seconds"])
        if seconds <= MIRROR_MIN_CACHE_SECONDS:
            raise ValidationError(_(
                "Mirrored files must stay cached more than 24 hours: give more than 86,400 "
                "seconds."))
        return seconds
