from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DeliveryConfig(AppConfig):
    name = "delivery"
    verbose_name = _("Content delivery")

    def ready(self) -> None:
        from delivery.receivers import connect_storage_signals

        connect_storage_signals()
