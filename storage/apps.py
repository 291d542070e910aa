from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StorageConfig(AppConfig):
    name = "storage"
    verbose_name = _("Object storage")

    def ready(self) -> None:
        # Mirror storage's "files migrated" on the services page (console cannot import us).
        from console.services import register_credential_check, register_file_count
        from storage.models import StoredFile
        from storage.services import operator_verdict

        # The services page checks an operator with our client before storing it.
        register_credential_check(operator_verdict)

        register_file_count(lambda bucket, since: StoredFile.objects.filter(
            service=bucket, kind=StoredFile.Kind.FILE, deleted_at__isnull=True,
            modified_at__gte=since).count())
