from django.apps import AppConfig


class DeliveryConfig(AppConfig):
    name = "sandbox.delivery"
    label = "sandbox_delivery"
    verbose_name = "Sandbox delivery"

    def ready(self) -> None:
        from sandbox.core import events
        from sandbox.delivery import cache, config, origin

        # The rows go with the reset; what the edge keeps in memory must go with them.
        events.on_reset(cache.EDGE_CACHE.clear)
        events.on_reset(config.forget)
        events.on_reset(origin.BALANCER.forget)  # round robin starts afresh
