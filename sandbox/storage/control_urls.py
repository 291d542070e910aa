from django.urls import path

from sandbox.storage import control, form_control

urlpatterns = [
    path("seed", control.seed),
    path("cors", form_control.cors_origins),
    path("notifications", form_control.notifications),
    path("tasks", form_control.tasks),
]
