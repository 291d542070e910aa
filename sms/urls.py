from django.urls import path

from backoffice.views import ServiceOverviewView

app_name = "sms"

urlpatterns = [
    path("", ServiceOverviewView.as_view(service_key="sms"), name="index"),
]
