from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TopupConfig(AppConfig):
    name = "topup"
    verbose_name = _("Mobile-data top-up")
