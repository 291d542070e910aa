from django.urls import path

from sandbox.topup import views

urlpatterns = [
    path("refreshToken", views.refresh_token),
    path("chargeOrder", views.charge_order),
    path("seekOrder", views.seek_order),
    path("getMyBalance", views.get_my_balance),
]

handler404 = "sandbox.core.errors.not_found"
handler500 = "sandbox.core.errors.server_error"
