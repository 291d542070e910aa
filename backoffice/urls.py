from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog, set_language

from backoffice import views

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("health", views.health, name="health"),
    path("ready", views.ready, name="ready"),
    path("metrics", views.metrics_view, name="metrics"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # The language can be chosen on the login page too, before anyone is signed in.
    path("i18n/setlang/", login_not_required(set_language), name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
    path("sms/", include("sms.urls")),
    path("topup/", include("topup.urls")),
    path("api/topup/", include("topup.api_urls")),
    path("storage/", include("storage.urls")),
    path("media/", include("media.urls")),
    path("delivery/", include("delivery.urls")),
]

handler404 = "backoffice.errors.page_not_found"
handler403 = "backoffice.errors.permission_denied"
