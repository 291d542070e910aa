from django.apps import AppConfig


class DeliveryConfig(AppConfig):
    name = "sandbox.delivery"
    label = "sandbox_delivery"
    verbose_name = "Sandbox delivery"

    def ready(self) -> None:
        from sandbox.core import events, tls_server
        from sandbox.delivery import body_limit, cache, config, ip_limits, origin, tls, upload_thumb
        from sandbox.storage import thumb

        # x-gmkerl-thumb at upload is drawn the edge's way (storage may not import the edge).
        thumb.register(upload_thumb.UploadThumb())

        # The rows go with the reset; what the edge keeps in memory must go with them.
        events.on_reset(cache.EDGE_CACHE.clear)
        events.on_reset(config.forget)
        events.on_reset(origin.BALANCER.forget)  # round robin starts afresh
        events.on_reset(tls.forget)
        # The HTTPS port (core) serves the certificate the edge binds to each name.
        tls_server.register_chooser(tls.context_for)
        events.on_reset(ip_limits.forget)  # the IP access limit counters
        events.on_server(body_limit.install)  # the delivery port's own request parser
