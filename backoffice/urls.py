from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog, set_language

from backoffice.operations import probes
from backoffice.ui import account_views, audit_views, dashboard, two_factor_views

urlpatterns = [
    path("", dashboard.dashboard, name="dashboard"),
    path("health", probes.health, name="health"),
    path("ready", probes.ready, name="ready"),
    path("metrics", probes.metrics_view, name="metrics"),
    path("accounts/login/", account_views.SignInView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/login/code/", account_views.login_code, name="login_code"),
    path("accounts/profile/", two_factor_views.profile, name="two_factor"),
    path("accounts/profile/recovery-codes/", two_factor_views.new_recovery_codes,
         name="new_recovery_codes"),
    path("accounts/profile/new-phone/", two_factor_views.new_phone, name="new_phone"),
    path("accounts/profile/turn-off/", two_factor_views.turn_off, name="two_factor_off"),
    # Django keeps this session signed in and ends the others (their session hash no longer
    # matches the new password); a wrong old password counts toward the login throttle.
    path("accounts/password/", account_views.PasswordChangeView.as_view(),
         name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(),
         name="password_change_done"),
    # The language can be chosen on the login page too, before anyone is signed in.
    path("i18n/setlang/", login_not_required(set_language), name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("audit/", audit_views.audit_log, name="audit_log"),
    path("audit/export.csv", audit_views.audit_csv, name="audit_csv"),
    path("admin/", admin.site.urls),
    path("sms/", include("sms.urls")),
    path("topup/", include("topup.urls")),
    path("api/topup/", include("topup.api_urls")),
    # The API's session login (DRF's browsable API); throttled like every other login.
    path("api/auth/", include("rest_framework.urls")),
    path("storage/", include("storage.urls")),
    path("media/", include("media.urls")),
    path("delivery/", include("delivery.urls")),
    path("services/", include("console.urls")),
]

handler404 = "backoffice.ui.errors.page_not_found"
handler403 = "backoffice.ui.errors.permission_denied"
handler500 = "backoffice.ui.outage.server_error"
