"""The "why was I refused" tester's request: typed by staff, read by GET so a result can be
linked to a colleague."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from delivery.refusal_tester import Probe, ProbeError, check_probe

PROBE_MESSAGES = {
    "url": _("Give a URL of this domain: http(s)://host/path or /path, without spaces."),
    "client_ip": _("An IPv4 or IPv6 address, e.g. 203.0.113.7."),
    "country": _("A two-letter country or region code (ISO 3166), e.g. CN."),
}


class RefusalProbeForm(forms.Form):
    url = forms.CharField(
        label=_("URL"), max_length=2048,
        help_text=_("As the visitor asked for it, query included (e.g. with its _upt token)."))
    client_ip = forms.CharField(
        label=_("Client address"), max_length=45, required=False,
        help_text=_("The visitor's IP address; empty for none."))
    referer = forms.CharField(label=_("Referer"), max_length=2048, required=False,
                              help_text=_("Empty: the request carries no Referer."))
    user_agent = forms.CharField(label=_("User-Agent"), max_length=1024, required=False,
                                 strip=False)
    country = forms.CharField(
        label=_("Country or region"), max_length=2, required=False,
        help_text=_("Empty: looked up from the client address, as the edge does."))

    def clean_client_ip(self) -> str:
        return self._checked("client_ip", Probe("/", client_ip=self.cleaned_data["client_ip"]))

    def clean_country(self) -> str:
        return self._checked("country", Probe("/", country=self.cleaned_data["country"]))

    def _checked(self, name: str, probe: Probe) -> str:
        try:
            check_probe(probe)
        except ProbeError:
            raise forms.ValidationError(PROBE_MESSAGES[name]) from None
        return str(self.cleaned_data[name]).strip()

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        try:
            check_probe(self.probe())
        except ProbeError as error:
            self.add_error(error.field, PROBE_MESSAGES[error.field])
        return data

    def probe(self) -> Probe:
        data = self.cleaned_data
        return Probe(url=data["url"], client_ip=data.get("client_ip", ""),
                     referer=data.get("referer", ""), user_agent=data.get("user_agent", ""),
                     country=data.get("country", "").upper())
