from django.urls import path

from sandbox.purge import control

urlpatterns = [
    path("requests", control.requests_view),
]
