from django.urls import path

from backoffice.views import ServiceOverviewView

app_name = "topup"

urlpatterns = [
    path("", ServiceOverviewView.as_view(service_key="topup"), name="index"),
]
