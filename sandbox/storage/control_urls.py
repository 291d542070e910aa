from django.urls import path

from sandbox.storage import control

urlpatterns = [
    path("seed", control.seed),
]
