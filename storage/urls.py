from django.urls import path

from backoffice.views import ServiceOverviewView

app_name = "storage"

urlpatterns = [
    path("", ServiceOverviewView.as_view(service_key="storage"), name="index"),
]
