from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class BackofficeConfig(AppConfig):
    name = "backoffice"
    verbose_name = _("Back-office")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in, user_logged_out

        # Celery's signal receivers: request ids travel with queued tasks, and a worker keeps
        # its heartbeat and task metrics. Connected here, not in backoffice.celery, because
        # these modules queue through that app; a worker sets Django up before its first task.
        from backoffice.operations import request_ids, worker_signals  # noqa: F401
        from backoffice.security import audit_access_receivers, audit_receivers, otp, sessions
        from backoffice.security.roles import sync_roles_after_migrate

        audit_receivers.connect()
        audit_access_receivers.connect()
        user_logged_in.connect(otp.reset_after_full_sign_in, dispatch_uid="otp.reset_failures")
        user_logged_in.connect(sessions.stamp_sign_in, dispatch_uid="sessions.stamp_sign_in")
        user_logged_out.connect(sessions.note_sign_out, dispatch_uid="sessions.note_sign_out")

        # Groups follow the apps' permissions: every migrate brings them up to date.
        post_migrate.connect(sync_roles_after_migrate, dispatch_uid="backoffice.sync_roles")
