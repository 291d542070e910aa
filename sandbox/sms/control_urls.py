from django.urls import path

from sandbox.sms import control

urlpatterns = [
    path("settings", control.settings_view),
    path("templates/<int:template_id>/review", control.review),
    path("outcomes", control.outcomes),
    path("signatures", control.signatures),
    path("words", control.words),
]
