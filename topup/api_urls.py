"""HTTP API of the top-up app, mounted at /api/topup/ by backoffice/urls.py.

Every view here authenticates on its own (the provider's sign, DRF token or session), so all of
them are exempt from the login-page redirect of LoginRequiredMiddleware, except the docs page.
"""

from django.contrib.auth.decorators import login_not_required
from django.urls import path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.permissions import IsAuthenticated

from topup.api.callback import CallbackView
from topup.api.docs import SCHEMA_SETTINGS, SCHEMA_URLCONF, api_docs
from topup.api.orders import AUTHENTICATION, OrderCreateView, OrderDetailView

app_name = "topup_api"

urlpatterns = [
    path("callback/", login_not_required(CallbackView.as_view()), name="callback"),
    path("orders/", login_not_required(OrderCreateView.as_view()), name="order-create"),
    path("orders/<str:custno>/", login_not_required(OrderDetailView.as_view()),
         name="order-detail"),
    path("schema/", login_not_required(SpectacularAPIView.as_view(
        urlconf=SCHEMA_URLCONF, custom_settings=SCHEMA_SETTINGS,
        authentication_classes=AUTHENTICATION,
        permission_classes=[IsAuthenticated])), name="schema"),
    path("docs/", api_docs, name="docs"),
]
