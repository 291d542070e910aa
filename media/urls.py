from django.urls import path

from backoffice.views import ServiceOverviewView

app_name = "media"

urlpatterns = [
    path("", ServiceOverviewView.as_view(service_key="media"), name="index"),
]
