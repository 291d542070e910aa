from django.apps import AppConfig
from django.db.models.signals import post_save


class CoreConfig(AppConfig):
    name = "sandbox.core"
    label = "sandbox_core"
    verbose_name = "Sandbox core"

    def ready(self) -> None:
        from sandbox.core import events, lines
        from sandbox.core.faults import fault_saved
        from sandbox.core.models import Fault

        events.on_reset(lines.clear)
        post_save.connect(fault_saved, sender=Fault, dispatch_uid="sandbox-fault-saved")
