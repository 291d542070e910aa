"""Forms of the Access page: region restriction, origin authentication (with its "try it"
sample request) and the external-links switch. Each saves only its own fields of the domain's
`DeliverySettings`; the rules are `delivery.access_rules`, and every error names its field
(and, for the list of countries, the line)."""

from __future__ import annotations

import ipaddress
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from delivery import access_rules
from delivery.models import DeliverySettings


def _pycountry_language() -> str:
    """pycountry's catalogue name for the page's language ("zh_CN" for Simplified Chinese)."""
    language = (get_language() or "en").lower()
    return "zh_CN" if language.startswith("zh") else language.split("-")[0]


class RegionForm(forms.ModelForm[DeliverySettings]):
    add_regions = forms.MultipleChoiceField(
        label=_("Add from the list"), required=False,
        widget=forms.SelectMultiple(attrs={"size": 8}),
        help_text=_("Chosen countries/regions are added to the list above."))

    class Meta:
        model = DeliverySettings
        fields = ["region_mode", "regions"]
        widgets = {"regions": forms.Textarea(attrs={"rows": 4})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        language = _pycountry_language()
        cast(forms.MultipleChoiceField, self.fields["add_regions"]).choices = [
            (code, f"{code} — {name}") for code, name in access_rules.countries(language)]

    def clean_regions(self) -> str:
        codes, problems = access_rules.parse_regions(self.cleaned_data["regions"])
        if problems:
            raise ValidationError([
                _("Line %(line)s: “%(code)s” is not an ISO 3166 country/region code "
                  "(two letters, e.g. CN or US).") % {"line": problem.line, "code": problem.text}
                for problem in problems])
        return "\n".join(codes)

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        if "regions" in data:
            codes = data["regions"].split()
            codes += [code for code in data.get("add_regions", []) if code not in codes]
            if len(codes) > access_rules.MAX_REGIONS:
                self.add_error("regions", _("At most %(n)s countries/regions.") % {
                    "n": access_rules.MAX_REGIONS})
            data["regions"] = "\n".join(codes)
            if data.get("region_mode") == "allow" and not codes:
                self.add_error("regions", _("Allow-only with an empty list would refuse every "
                                            "request: list at least one country/region."))
        return data


def auth_url_text(problem: str) -> str:
    """The words for a problem of `access_rules.auth_url_problem`."""
    if problem == "length":
        return _("At most %(n)s characters.") % {"n": access_rules.MAX_AUTH_URL}
    if problem == "spaces":
        return str(_("A URL has no spaces or control characters."))
    if problem == "scheme":
        return str(_("Only http:// and https:// auth URLs can be asked by the edge."))
    return str(_("The URL names no host."))


class OriginAuthForm(forms.ModelForm[DeliverySettings]):
    class Meta:
        model = DeliverySettings
        fields = ["origin_auth_url", "origin_auth_timeout", "origin_auth_timeout_refuses"]
        widgets = {"origin_auth_url": forms.TextInput(attrs={
            "placeholder": "https://shop.example.com/cdn-auth", "inputmode": "url"})}

    def clean_origin_auth_url(self) -> str:
        url: str = self.cleaned_data["origin_auth_url"].strip()
        problem = access_rules.auth_url_problem(url) if url else None
        if problem is not None:
            raise ValidationError(auth_url_text(problem))
        return url

    def clean_origin_auth_timeout(self) -> int:
        seconds: int = self.cleaned_data["origin_auth_timeout"]
        if not access_rules.auth_timeout_ok(seconds):
            raise ValidationError(_("Between %(low)s and %(high)s seconds.") % {
                "low": access_rules.MIN_AUTH_TIMEOUT, "high": access_rules.MAX_AUTH_TIMEOUT})
        return seconds


class AuthTryForm(forms.Form):
    """The sample client request of "try it"."""

    try_uri = forms.CharField(
        label=_("Sample URI"), initial="/index.html", max_length=1024,
        help_text=_("Path and query a client asks for, e.g. /photos/a.jpg?x=1"))
    try_client_ip = forms.CharField(label=_("Sample client address"), initial="203.0.113.7",
                                    max_length=45)

    def clean_try_uri(self) -> str:
        uri: str = self.cleaned_data["try_uri"].strip()
        if not uri.startswith("/") or any(ord(c) <= 0x20 or ord(c) == 0x7f for c in uri):
            raise ValidationError(_("A path starting with /, without spaces."))
        return uri

    def clean_try_client_ip(self) -> str:
        text: str = self.cleaned_data["try_client_ip"].strip()
        try:
            return str(ipaddress.ip_address(text))
        except ValueError:
            raise ValidationError(_("“%(value)s” is not an IP address.") % {
                "value": text}) from None


class ExternalLinksForm(forms.ModelForm[DeliverySettings]):
    class Meta:
        model = DeliverySettings
        fields = ["external_links"]
