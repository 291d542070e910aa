"""Settings per domain: the one existing row becomes the demo domain's."""

from django.db import migrations, models


def name_the_demo_domain(apps, schema_editor):  # type: ignore[no-untyped-def]
    Account = apps.get_model("sandbox_core", "Account")
    EdgeSettings = apps.get_model("sandbox_delivery", "EdgeSettings")
    account = Account.objects.first()
    if account is not None:
        EdgeSettings.objects.filter(domain="").update(
            domain=f"{account.storage_bucket}.sandbox.localhost")


class Migration(migrations.Migration):

    dependencies = [
        ("sandbox_core", "0002_account_console_login"),
        ("sandbox_delivery", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="edgesettings",
            name="domain",
            field=models.CharField(default="", max_length=253),
            preserve_default=False,
        ),
        migrations.RunPython(name_the_demo_domain, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="edgesettings",
            name="domain",
            field=models.CharField(max_length=253, unique=True),
        ),
    ]
