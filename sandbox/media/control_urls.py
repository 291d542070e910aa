from django.urls import path

from sandbox.media import control

urlpatterns = [
    path("requests", control.requests_log),
]
