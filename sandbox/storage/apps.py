from django.apps import AppConfig


class StorageConfig(AppConfig):
    name = "sandbox.storage"
    label = "sandbox_storage"
    verbose_name = "Sandbox storage"

    def ready(self) -> None:
        from sandbox.core import events
        from sandbox.storage import assembly, cors, disk, expiry, form_apps, form_notify

        events.on_tick(expiry.run_due)
        events.on_tick(form_apps.run_due)  # the FORM API's apps, before their callbacks
        events.on_tick(form_notify.send_due)  # the FORM API's notify-url calls
        events.on_reset(form_apps.forget)
        events.on_reset(form_notify.forget)
        events.on_reset(cors.forget)  # back to SANDBOX_STORAGE_CORS_ORIGINS
        events.on_reset(disk.wipe)  # the rows go with the reset; the bytes are ours to remove
        events.on_reset(assembly.forget_all)  # and so is what we keep in memory about tasks
