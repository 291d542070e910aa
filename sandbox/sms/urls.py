from django.urls import path

from sandbox.sms import views

urlpatterns = [
    path("api/templates", views.templates),
    path("api/templates/<str:template_id>", views.template_detail),
    path("api/messages", views.messages),
]

# The provider's own error body for unknown paths and crashes: {error_code, message}.
handler404 = "sandbox.sms.errors.not_found"
handler500 = "sandbox.sms.errors.server_error"
