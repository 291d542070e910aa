from django.urls import path

from backoffice.views import ServiceOverviewView

app_name = "delivery"

urlpatterns = [
    path("", ServiceOverviewView.as_view(service_key="delivery"), name="index"),
]
