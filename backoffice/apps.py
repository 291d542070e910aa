from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class BackofficeConfig(AppConfig):
    name = "backoffice"
    verbose_name = _("Back-office")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from backoffice import audit_receivers, otp
        from backoffice.roles import sync_roles_after_migrate

        audit_receivers.connect()
        user_logged_in.connect(otp.reset_after_full_sign_in, dispatch_uid="otp.reset_failures")

        # Groups follow the apps' permissions: every migrate brings them up to date.
        post_migrate.connect(sync_roles_after_migrate, dispatch_uid="backoffice.sync_roles")
