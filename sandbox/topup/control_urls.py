from django.urls import path

from sandbox.topup import control

urlpatterns = [
    path("settings", control.settings_view),
    path("rules", control.rules_view),
    path("orders", control.orders_view),
    path("orders/<str:custno>/resolve", control.resolve_view),
    path("callbacks", control.callbacks_view),
]
