from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class ConsoleConfig(AppConfig):
    name = "sandbox.console"
    label = "sandbox_console"
    verbose_name = "Sandbox console"

    def ready(self) -> None:
        from sandbox.console import demo, directory
        from sandbox.console.models import Domain, Operator, Service
        from sandbox.core import account, events

        account.on_ensure(demo.ensure_demo_service)
        events.on_reset(directory.forget)
        for model in (Service, Operator, Domain):
            for signal in (post_save, post_delete):
                signal.connect(directory.changed, sender=model,
                               dispatch_uid=f"sandbox-console-{model.__name__}-{signal}")
