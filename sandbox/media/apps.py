from django.apps import AppConfig


class MediaConfig(AppConfig):
    name = "sandbox.media"
    label = "sandbox_media"
    verbose_name = "Sandbox media"
