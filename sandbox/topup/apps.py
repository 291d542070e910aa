from django.apps import AppConfig


class TopupConfig(AppConfig):
    name = "sandbox.topup"
    label = "sandbox_topup"
    verbose_name = "Sandbox topup"
