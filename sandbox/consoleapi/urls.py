"""The console port's endpoints."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []

# Unknown paths and crashes answer in the console's own error shape.
handler404 = "sandbox.consoleapi.errors.not_found"
handler500 = "sandbox.consoleapi.errors.server_error"
