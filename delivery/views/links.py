"""Link builders: signed (`_upt`/`_upp`), secret-protected originals, forced downloads,
cache bypass and JS/CSS combining. Building is read-only, but anything that carries a token
or a file's secret needs `sign_links`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.http import HttpResponse, QueryDict
from django.shortcuts import render
from django.utils.translation import gettext as _

from backoffice.annotations import StaffRequest
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.security.access import check_permissions
from console.models import Domain
from delivery import services
from delivery.forms import (
    CacheBypassForm,
    CombineForm,
    DownloadLinkForm,
    OptionalSigningForm,
    SecretLinkForm,
    SignedLinkForm,
    add_link_errors,
)
from delivery.models import DeliverySettings
from delivery.rules import LinkError
from delivery.views.access import SIGN, abilities, needs
from delivery.views.domain import page, with_domain

Builder = Callable[[Domain, Any], str]


def _build_signed(domain: Domain, form: SignedLinkForm) -> str:
    data = form.cleaned_data
    signing = form.signing()
    assert signing is not None  # a SignedLinkForm always signs
    return services.signed_link(domain, data["path"], signing, data["suffix"])


def _build_secret(domain: Domain, form: SecretLinkForm) -> str:
    data = form.cleaned_data
    return services.secret_link(domain, data["path"], data["secret"], form.signing())


def _build_download(domain: Domain, form: DownloadLinkForm) -> str:
    data = form.cleaned_data
    return services.download_link(domain, data["path"], data["name"] or None, form.signing())


def _build_bypass(domain: Domain, form: CacheBypassForm) -> str:
    data = form.cleaned_data
    return services.cache_bypass_link(domain, data["path"], data["upv"], form.signing())


def _build_combine(domain: Domain, form: CombineForm) -> str:
    return services.combine_link(domain, form.cleaned_data["directory"], form.file_list(),
                                 form.signing())


# kind -> (form class, builder, needs sign_links to be used at all)
KINDS: dict[str, tuple[type[forms.Form], Builder, bool]] = {
    "signed": (SignedLinkForm, _build_signed, True),
    "secret": (SecretLinkForm, _build_secret, True),
    "download": (DownloadLinkForm, _build_download, False),
    "bypass": (CacheBypassForm, _build_bypass, False),
    "combine": (CombineForm, _build_combine, False),
}


def _form(kind: str, request: StaffRequest, token_protection: bool,
          data: QueryDict | None = None) -> forms.Form:
    form_class, _builder, _sign_only = KINDS[kind]
    # A link from the storage file browser carries the file's `path`: fill it in everywhere.
    kwargs: dict[str, Any] = {"prefix": kind, "initial": {"path": request.GET.get("path", "")}}
    if issubclass(form_class, OptionalSigningForm):
        kwargs["token_protection"] = token_protection
    if form_class in (DownloadLinkForm, CacheBypassForm, CombineForm):
        kwargs["may_sign"] = request.user.has_perm(SIGN)
    return form_class(data, **kwargs)


def _unsigned_warning(form: forms.Form) -> str:
    """Why the edge will refuse a link just built without a token, or ""."""
    if not isinstance(form, OptionalSigningForm) or not form.refused_by_edge():
        return ""
    if form.may_sign:
        return _("Token protection is on: the edge refuses this link without a token. "
                 "Tick “Add a token (_upt)” to build one it serves.")
    return _("Token protection is on: the edge refuses this link without a token, and "
             "adding one needs the permission to sign links.")


@needs()
@with_domain
def link_builder(request: StaffRequest, domain: Domain) -> HttpResponse:
    posted = request.POST.get("kind") if request.method == "POST" else None
    settings_row = DeliverySettings.for_domain(domain)
    protected = settings_row.token_protection
    results: dict[str, str] = {}
    warnings: dict[str, str] = {}
    page_errors: list[str] = []
    built_forms = {}
    for kind in KINDS:
        if kind == posted:
            _form_class, builder, sign_only = KINDS[kind]
            if sign_only:
                check_permissions(request, SIGN)
            form = _form(kind, request, protected, request.POST)
            if form.is_valid():
                try:
                    results[kind] = builder(domain, form)
                    warnings[kind] = _unsigned_warning(form)
                except LinkError as error:
                    add_link_errors(form, error, {"_upp": "upp", "_upd": "name",
                                                  "_upv": "upv", "version": "suffix"})
                except ProviderNotConfigured as error:
                    page_errors.append(str(error))
        else:
            form = _form(kind, request, protected)
        built_forms[kind] = form
    may_sign = request.user.has_perm(SIGN)
    sections = [
        {"kind": kind, "title": title, "intro": intro, "form": built_forms[kind],
         "result": results.get(kind, ""), "warning": warnings.get(kind, "")}
        for kind, title, intro in _sections()
        if may_sign or not KINDS[kind][2]
    ]
    return render(request, "delivery/links.html", {
        "nav": "links",
        "sections": sections,
        "posted": posted,
        "page_errors": page_errors,
        "token_protection": protected,
        "separator": settings_row.separator,
        "param_follow": settings_row.param_follow,
        "combine_on": settings_row.combine_js_css,
        **page(request, domain),
        **abilities(request.user),
    })


def _sections() -> list[tuple[str, str, str]]:
    return [
        ("signed", _("Signed link"), _("A link that works until the chosen time (_upt "
                                      "token), for one file or, with a directory level, for "
                                      "everything below a folder.")),
        ("secret", _("Secret-protected original"), _("The URL of a file stored with a "
                                                     "secret: <URL><separator><secret>.")),
        ("download", _("Forced download"), _("The browser saves the file instead of showing "
                                             "it (_upd).")),
        ("bypass", _("Cache bypass"), _("Fetches a fresh copy past the edge cache (_upv, two "
                                        "digits).")),
        ("combine", _("JS/CSS combine"), _("Several scripts or stylesheets of one folder "
                                           "served as one file.")),
    ]
