"""The staff member's own pages: the second sign-in step that asks for a code, and the
password change (the account page's two-factor part is `two_factor_views`)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django import forms
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from backoffice.annotations import StaffRequest
from backoffice.security import otp, reauth, sessions
from backoffice.security.redirects import safe_next
from backoffice.security.throttle import lockout_response
from backoffice.ui.two_factor_views import wait_message


class CodeForm(forms.Form):
    code = forms.CharField(label=gettext_lazy("Code"), max_length=40,
                           widget=forms.TextInput(attrs={"autocomplete": "one-time-code",
                                                         "inputmode": "numeric",
                                                         "autofocus": True}))


@never_cache
@login_required
def login_code(request: StaffRequest) -> HttpResponse:
    """The second step of signing in for an enrolled person."""
    # django-otp's OTPMiddleware gives every request.user an is_verified().
    if request.user.is_verified() or not otp.is_enrolled(request.user):  # type: ignore[attr-defined]
        return redirect(safe_next(request, "/"))
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        username = request.user.get_username()  # the session ends on a lockout
        check = otp.verify_code(request, form.cleaned_data["code"])
        if check.outcome == "ok":
            return redirect(safe_next(request, "/"))
        if check.outcome == "locked":
            return lockout_response(request, credentials={"username": username})
        form.add_error("code", wait_message(check.wait_seconds) if check.outcome == "wait"
                       else _("This code is not right. Enter the code your app shows now, "
                              "or one of your recovery codes."))
    return render(request, "registration/login_code.html", {
        "form": form, "next": safe_next(request, "")}, status=400 if form.errors else 200)


class SignInView(auth_views.LoginView):
    """Django's sign-in page, which also says when the last session ended by itself (and
    why), and has the page the person was on fill its form in again after signing in
    (static/js/formkeep.js: the values stayed in the browser tab)."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        ended = sessions.session_end_text(self.request)
        target = safe_next(self.request, "")
        context["session_ended"] = ended
        context["formkeep"] = {"path": urlsplit(target).path, "values": {}} if (
            ended and target) else None
        return context


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
