"""The HTTPS page's forms: a certificate upload (text or file for each part) and a domain's
HTTPS settings (its certificate, HTTPS access, forced HTTPS)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext_lazy as _

from console.models import Domain
from delivery import services
from delivery.models import Certificate

MAX_PEM_BYTES = 64 * 1024


class CertificateUploadForm(forms.Form):
    certificate = forms.CharField(
        label=_("Certificate chain (PEM)"), required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false",
                                     "placeholder": "-----BEGIN CERTIFICATE-----"}),
        help_text=_("The site's certificate first, then each intermediate certificate."))
    certificate_file = forms.FileField(label=_("or a certificate file"), required=False)
    private_key = forms.CharField(
        label=_("Private key (PEM)"), required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "autocomplete": "off",
                                     "placeholder": "-----BEGIN PRIVATE KEY-----"}),
        help_text=_("Unencrypted; it is stored sealed and never shown again."))
    private_key_file = forms.FileField(label=_("or a key file"), required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for field in ("certificate", "private_key"):
            upload = cleaned.get(f"{field}_file")
            text = _read(upload, field, self) if upload else str(cleaned.get(field) or "")
            if not text.strip() and field not in self.errors:
                self.add_error(field, _("Paste the PEM text or choose a file."))
            cleaned[field] = text
        return cleaned


def _read(upload: UploadedFile, field: str, form: forms.Form) -> str:
    if (upload.size or 0) > MAX_PEM_BYTES:
        form.add_error(field, _("The file is larger than 64 KB: not a PEM certificate or key."))
        return ""
    try:
        return b"".join(upload.chunks()).decode("ascii")
    except UnicodeDecodeError:
        form.add_error(field, _("The file is not PEM text (it is binary, perhaps DER)."))
        return ""


class CertificateChoice(forms.ModelChoiceField[Certificate]):
    def label_from_instance(self, obj: Certificate) -> str:
        return f"{', '.join(obj.names)} · {obj.not_after:%Y-%m-%d} · {obj.fingerprint[:11]}"


class HttpsForm(forms.Form):
    certificate = CertificateChoice(
        label=_("Certificate"), queryset=Certificate.objects.all(), required=False,
        empty_label=_("(none)"))
    https_access = forms.BooleanField(
        label=_("HTTPS access"), required=False,
        help_text=_("The edge completes TLS for this domain with the certificate; off, it "
                    "refuses TLS for the domain's name."))
    force_https = forms.BooleanField(
        label=_("Forced HTTPS"), required=False,
        help_text=_("Plain HTTP requests are answered with a redirect to https://. Needs HTTPS "
                    "access."))

    def __init__(self, *args: Any, domain: Domain, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.domain = domain

    def choice(self) -> services.HttpsChoice:
        return services.HttpsChoice(self.cleaned_data.get("certificate"),
                                    bool(self.cleaned_data.get("https_access")),
                                    bool(self.cleaned_data.get("force_https")))

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not self.errors:
            try:
                services.check_https(self.domain, self.choice())
            except services.CertificateRefused as refused:
                self.add_error(refused.field if refused.field in self.fields else None,
                               refused.message)
        return cleaned
