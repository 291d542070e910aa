from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "sandbox.core"
    label = "sandbox_core"
    verbose_name = "Sandbox core"
