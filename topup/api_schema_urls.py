"""URL configuration the OpenAPI schema is generated from: the merchant API under its real
prefix, and nothing else of the project."""

from django.urls import include, path

urlpatterns = [path("api/topup/", include("topup.api_urls"))]
