from django.apps import AppConfig
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from sms.window import WindowError, parse_window


class SmsConfig(AppConfig):
    name = "sms"
    verbose_name = _("SMS")

    def ready(self) -> None:
        # Every process (web, worker, beat, commands) runs this at start-up: a malformed window
        # stops it there, naming the variable, instead of failing a campaign hours later.
        try:
            parse_window(settings.SMS_MARKETING_WINDOW)
        except WindowError as error:
            raise ImproperlyConfigured(f"SMS_MARKETING_WINDOW: {error}") from None
