from django.apps import AppConfig


class DeliveryConfig(AppConfig):
    name = "sandbox.delivery"
    label = "sandbox_delivery"
    verbose_name = "Sandbox delivery"
