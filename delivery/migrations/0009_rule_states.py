"""A rule is enabled, off or in test for listed addresses (the public page's three states),
instead of the debug switch: a rule in debug mode is in test, any other enabled."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models


def states_from_debug(apps: Any, schema_editor: Any) -> None:
    rule = apps.get_model("delivery", "Rule")
    rule.objects.filter(debug=True).update(state="test")
    rule.objects.filter(debug=False).update(state="enabled")


def debug_from_states(apps: Any, schema_editor: Any) -> None:
    rule = apps.get_model("delivery", "Rule")
    rule.objects.filter(state="test").update(debug=True)
    rule.objects.exclude(state="test").update(debug=False)


class Migration(migrations.Migration):
    dependencies = [("delivery", "0008_purge_error_kind")]

    operations = [
        migrations.AddField(
            model_name="rule",
            name="state",
            field=models.CharField(
                choices=[("enabled", "enabled"), ("off", "off"), ("test", "in test")],
                default="test", max_length=7, verbose_name="state"),
        ),
        migrations.AddField(
            model_name="rule",
            name="test_addresses",
            field=models.TextField(
                blank=True, verbose_name="test addresses",
                help_text="One IP address or network (CIDR) a line: the requests a rule in "
                          "test applies to."),
        ),
        migrations.RunPython(states_from_debug, debug_from_states),
        migrations.RemoveField(model_name="rule", name="debug"),
    ]
