from django.urls import path

from sandbox.sms import message_views, template_views

urlpatterns = [
    path("api/templates", template_views.templates),
    path("api/templates/<str:template_id>", template_views.template_detail),
    path("api/messages", message_views.messages),
]

# The provider's own error body for unknown paths and crashes: {error_code, message}.
handler404 = "sandbox.sms.errors.not_found"
handler500 = "sandbox.sms.errors.server_error"
