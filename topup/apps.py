from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TopupConfig(AppConfig):
    name = "topup"
    verbose_name = _("Mobile-data top-up")

    def ready(self) -> None:
        from topup.conf import KNOBS, knob

        # Every TOPUP_* value is read now, so a malformed one stops start-up naming the
        # variable instead of failing later inside a task.
        for name in KNOBS:
            knob(name)
