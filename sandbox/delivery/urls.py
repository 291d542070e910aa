from django.urls import URLPattern

urlpatterns: list[URLPattern] = []

handler404 = "sandbox.core.errors.not_found"
handler500 = "sandbox.core.errors.server_error"
