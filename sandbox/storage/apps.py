from django.apps import AppConfig


class StorageConfig(AppConfig):
    name = "sandbox.storage"
    label = "sandbox_storage"
    verbose_name = "Sandbox storage"
