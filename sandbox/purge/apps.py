from django.apps import AppConfig


class PurgeConfig(AppConfig):
    name = "sandbox.purge"
    label = "sandbox_purge"
    verbose_name = "Sandbox purge"
