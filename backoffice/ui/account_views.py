"""The staff member's own pages: the profile (two-factor enrolment, password link) and the
second sign-in step that asks for a code."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from backoffice.annotations import StaffRequest
from backoffice.security import otp, reauth
from backoffice.security.redirects import safe_next
from backoffice.security.throttle import lockout_response


class CodeForm(forms.Form):
    code = forms.CharField(label=gettext_lazy("Code"), max_length=40,
                           widget=forms.TextInput(attrs={"autocomplete": "one-time-code",
                                                         "inputmode": "numeric",
                                                         "autofocus": True}))


@login_required
def profile(request: StaffRequest) -> HttpResponse:
    """Shows whether two-factor sign-in is on; enrols (QR code, secret, first code) if not."""
    enrolled = otp.is_enrolled(request.user)
    context = {"enrolled": enrolled, "required": otp.must_enrol(request.user),
               "next": safe_next(request, "")}
    if enrolled:
        return render(request, "registration/profile.html", context)
    device = otp.pending_device(request.user)
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        codes = otp.confirm_enrolment(request, device, form.cleaned_data["code"])
        if codes is not None:
            # Shown in this answer only: the codes are kept hashed by nobody but the person.
            response = render(request, "registration/recovery_codes.html", {
                "codes": codes, "next": context["next"] or "/"})
            response["Cache-Control"] = "no-store"
            return response
        form.add_error("code", _("This code is not right. Check the time on your phone and "
                                 "enter the code the app shows now."))
    return render(request, "registration/profile.html", {
        **context, "form": form, "qr": otp.qr_svg(device), "secret": otp.secret_of(device),
    }, status=400 if form.errors else 200)


@login_required
def login_code(request: StaffRequest) -> HttpResponse:
    """The second step of signing in for an enrolled person."""
    # django-otp's OTPMiddleware gives every request.user an is_verified().
    if request.user.is_verified() or not otp.is_enrolled(request.user):  # type: ignore[attr-defined]
        return redirect(safe_next(request, "/"))
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        username = request.user.get_username()  # the session ends on a lockout
        outcome = otp.verify_code(request, form.cleaned_data["code"])
        if outcome == "ok":
            return redirect(safe_next(request, "/"))
        if outcome == "locked":
            return lockout_response(request, credentials={"username": username})
        form.add_error("code", _("This code is not right. Enter the code your app shows now, "
                                 "or one of your recovery codes."))
    return render(request, "registration/login_code.html", {
        "form": form, "next": safe_next(request, "")}, status=400 if form.errors else 200)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's page, with each wrong old password counted by the login throttle (a stolen
    session could otherwise guess the password there without limit)."""

    def post(self, request: StaffRequest, *args: Any, **kwargs: Any) -> HttpResponse:  # type: ignore[override]
        if not reauth.is_allowed(request, request.user):
            return lockout_response(request, credentials=reauth.credentials_of(request.user))
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: PasswordChangeForm) -> HttpResponse:
        if form.has_error("old_password"):
            user = form.user
            if reauth.report_wrong_password(self.request, user) == "locked":
                return lockout_response(self.request, credentials=reauth.credentials_of(user))
        return super().form_invalid(form)
