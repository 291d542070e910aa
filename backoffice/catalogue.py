"""The provider's services as the back-office knows them: one entry per dashboard tile."""

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Service:
    key: str
    label: Promise
    app_label: str
    access_permission: str


SERVICES: tuple[Service, ...] = (
    Service("sms", _("SMS"), "sms", "sms.access_sms"),
    Service("topup", _("Mobile-data top-up"), "topup", "topup.access_topup"),
    Service("storage", _("Object storage"), "storage", "storage.access_storage"),
    Service("media", _("Media processing"), "media", "media.access_media"),
    Service("delivery", _("Content delivery"), "delivery", "delivery.access_delivery"),
)
SERVICE_KEYS = tuple(service.key for service in SERVICES)

# Pages of the menu that are not a provider service: the account's services and domains (the
# console app). Not a dashboard tile, so not in SERVICES.
MENU_PAGES: tuple[Service, ...] = (
    Service("console", _("Services and domains"), "console", "console.access_services"),
)
