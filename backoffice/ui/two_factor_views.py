"""The two-factor part of the account page: enrolment (QR code, secret, first code), and for
the enrolled the recovery codes left, a new set, moving to a new phone and turning it off.
Each change asks for the password again; every answer is `no-store` (secrets and codes must
not stay in a cache or the browser's history)."""

from __future__ import annotations

from urllib.parse import quote

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from backoffice.annotations import StaffRequest
from backoffice.security import otp, recovery
from backoffice.security.redirects import safe_next
from backoffice.security.throttle import lockout_response


class PasswordForm(forms.Form):
    password = forms.CharField(label=gettext_lazy("Your password"), strip=False,
                               widget=forms.PasswordInput(
                                   attrs={"autocomplete": "current-password"}))


class DeviceForm(PasswordForm):
    code = forms.CharField(label=gettext_lazy("Code"), max_length=40,
                           widget=forms.TextInput(attrs={"autocomplete": "one-time-code",
                                                         "inputmode": "numeric"}))
    field_order = ["code", "password"]


def wrong_code_message() -> str:
    return _("This code is not right. Check the time on your phone and enter the code the "
             "app shows now.")


def wait_message(seconds: int) -> str:
    return ngettext("Too many wrong codes: wait %(seconds)d second, then enter the code the "
                    "app shows.",
                    "Too many wrong codes: wait %(seconds)d seconds, then enter the code the "
                    "app shows.", seconds) % {"seconds": seconds}


def refusal(request: StaffRequest, username: str, form: forms.Form,
            refused: otp.SecondFactorRefused) -> HttpResponse | None:
    """Names the field a refusal concerns on `form`, or answers the lockout (the session has
    ended then: `username` is the name it had)."""
    if refused.reason == "locked":
        return lockout_response(request, credentials={"username": username})
    messages = {
        "password": ("password", _("This password is not right.")),
        "code": ("code", wrong_code_message()),
        "wait": ("code", wait_message(refused.wait_seconds)),
        "required": (None, _("Your role requires two-factor sign-in: it cannot be turned "
                             "off.")),
    }
    field, message = messages[refused.reason]
    form.add_error(field, message)
    return None


def codes_page(request: StaffRequest, codes: list[str], heading: str,
               next_url: str) -> HttpResponse:
    """The codes, shown in this answer only (only their digests are kept), with a download
    that needs no request back (a data: link) and a copy button."""
    text = "\n".join(codes) + "\n"
    return render(request, "registration/recovery_codes.html", {
        "codes": codes, "heading": heading, "next": next_url,
        "download_href": "data:text/plain;charset=utf-8," + quote(text)})


@never_cache
@login_required
def profile(request: StaffRequest) -> HttpResponse:
    """Enrols (QR code, secret, first code and password) if the person has no second factor;
    shows its state and the changes on offer otherwise."""
    user = request.user
    next_url = safe_next(request, "")
    context = {"required": otp.must_enrol(user), "next": next_url}
    if otp.is_enrolled(user):
        return render(request, "registration/profile.html", {
            **context, "enrolled": True, "codes_left": recovery.codes_left(user),
            "may_turn_off": not otp.is_required(user),
            "codes_form": PasswordForm(prefix="codes"), "off_form": PasswordForm(prefix="off")})
    device = otp.pending_device(user)
    form = DeviceForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        username = user.get_username()
        try:
            codes = otp.confirm_device(request, device, form.cleaned_data["code"],
                                       form.cleaned_data["password"])
        except otp.SecondFactorRefused as refused:
            locked = refusal(request, username, form, refused)
            if locked is not None:
                return locked
        else:
            return codes_page(request, codes or [], _("Two-factor sign-in is on"),
                              next_url or "/")
    return render(request, "registration/profile.html", {
        **context, "enrolled": False, "form": form, "qr": otp.qr_svg(device),
        "secret": otp.secret_of(device)}, status=400 if form.errors else 200)


@never_cache
@login_required
@require_POST
def new_recovery_codes(request: StaffRequest) -> HttpResponse:
    if not otp.is_enrolled(request.user):
        return redirect("two_factor")
    form = PasswordForm(request.POST, prefix="codes")
    username = request.user.get_username()
    if form.is_valid():
        try:
            codes = otp.new_recovery_codes(request, form.cleaned_data["password"])
        except otp.SecondFactorRefused as refused:
            locked = refusal(request, username, form, refused)
            if locked is not None:
                return locked
        else:
            return codes_page(request, codes, _("New recovery codes"), "/accounts/profile/")
    return enrolled_page_with(request, codes_form=form)


@never_cache
@login_required
@require_POST
def turn_off(request: StaffRequest) -> HttpResponse:
    if not otp.is_enrolled(request.user):
        return redirect("two_factor")
    form = PasswordForm(request.POST, prefix="off")
    username = request.user.get_username()
    if form.is_valid():
        try:
            otp.turn_off(request, form.cleaned_data["password"])
        except otp.SecondFactorRefused as refused:
            locked = refusal(request, username, form, refused)
            if locked is not None:
                return locked
        else:
            return redirect("two_factor")
    return enrolled_page_with(request, off_form=form)


def enrolled_page_with(request: StaffRequest, **forms_: PasswordForm) -> HttpResponse:
    user = request.user
    return render(request, "registration/profile.html", {
        "enrolled": True, "codes_left": recovery.codes_left(user),
        "may_turn_off": not otp.is_required(user), "next": "",
        "codes_form": PasswordForm(prefix="codes"), "off_form": PasswordForm(prefix="off"),
        **forms_}, status=400)


@never_cache
@login_required
def new_phone(request: StaffRequest) -> HttpResponse:
    """Moving to a new phone: the new one is enrolled (QR code, first code, password), then
    the old one removed; the recovery codes stay."""
    if not otp.is_enrolled(request.user):
        return redirect("two_factor")
    device = otp.pending_device(request.user)
    form = DeviceForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        username = request.user.get_username()
        try:
            otp.confirm_device(request, device, form.cleaned_data["code"],
                               form.cleaned_data["password"])
        except otp.SecondFactorRefused as refused:
            locked = refusal(request, username, form, refused)
            if locked is not None:
                return locked
        else:
            return redirect("two_factor")
    return render(request, "registration/new_phone.html", {
        "form": form, "qr": otp.qr_svg(device), "secret": otp.secret_of(device)},
        status=400 if form.errors else 200)
