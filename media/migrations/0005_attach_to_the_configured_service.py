"""Records made before services existed belong to the environment's service (console.attaching)."""

from typing import Any

from django.db import migrations

from console.attaching import attach_all


def attach(apps: Any, schema_editor: Any) -> None:
    attach_all(apps, "media", ["ProcessingJob"], "service")


class Migration(migrations.Migration):
    dependencies = [("media", "0004_service_added"), ("console", "0001_services_and_domains")]

    operations = [migrations.RunPython(attach, migrations.RunPython.noop)]
