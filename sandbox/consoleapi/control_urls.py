from django.urls import path

from sandbox.consoleapi import control

urlpatterns = [
    path("services", control.services_view),
    path("services/<str:name>", control.service_view),
    path("lines", control.lines_view),
]
