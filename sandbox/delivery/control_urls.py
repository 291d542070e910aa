from django.urls import path

from sandbox.delivery import control

urlpatterns = [
    path("config", control.config_view),
    path("cache", control.cache_view),
]
