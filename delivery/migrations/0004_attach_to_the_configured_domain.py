"""Records made before services existed belong to the environment's domain (console.attaching)."""

from typing import Any

from django.db import migrations

from console.attaching import attach_all


def attach(apps: Any, schema_editor: Any) -> None:
    attach_all(apps, "delivery", ["DeliverySettings", "ImageVersion", "RuleSet", "PurgeRequest", "PublishedConfig"], "domain")


class Migration(migrations.Migration):
    dependencies = [("delivery", "0003_domain_added"), ("console", "0001_services_and_domains")]

    operations = [migrations.RunPython(attach, migrations.RunPython.noop)]
