"""The console API's login on the account; an existing account gets a random password."""

import secrets
import string

from django.db import migrations, models

ALPHANUMERIC = string.ascii_letters + string.digits


def give_passwords(apps, schema_editor):  # type: ignore[no-untyped-def]
    Account = apps.get_model("sandbox_core", "Account")
    for account in Account.objects.filter(console_password=""):
        account.console_password = "".join(secrets.choice(ALPHANUMERIC) for _ in range(24))
        account.save(update_fields=["console_password"])


class Migration(migrations.Migration):

    dependencies = [
        ("sandbox_core", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="account",
            name="console_username",
            field=models.CharField(default="demo", max_length=64),
        ),
        migrations.AddField(
            model_name="account",
            name="console_password",
            field=models.CharField(default="", max_length=64),
        ),
        migrations.RunPython(give_passwords, migrations.RunPython.noop),
    ]
