from django.apps import AppConfig


class TopupConfig(AppConfig):
    name = "sandbox.topup"
    label = "sandbox_topup"
    verbose_name = "Sandbox topup"

    def ready(self) -> None:
        from sandbox.core import events
        from sandbox.topup.ticks import tick

        events.on_tick(tick)
