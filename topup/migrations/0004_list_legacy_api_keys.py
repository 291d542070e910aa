"""Lists the DRF `authtoken` keys that exist when hashed merchant tokens arrive.

They keep working (unscoped, never expiring) until an administrator deletes them in the admin
(Auth Token > Tokens); the API tokens page lists them too. Nothing is changed here: the
migration only names them (user and creation date, never the key) so that whoever migrates
knows which integrations still use the old scheme.
"""

import sys

from django.db import migrations


def list_legacy_keys(apps, schema_editor):  # type: ignore[no-untyped-def]
    Token = apps.get_model("authtoken", "Token")
    keys = list(Token.objects.select_related("user").order_by("created"))
    if not keys:
        return
    out = sys.stdout
    out.write(f"\n  {len(keys)} API key(s) of the former scheme are still accepted until an "
              "administrator deletes them in the admin:\n")
    for key in keys:
        out.write(f"    - {key.user.get_username()} (created {key.created:%Y-%m-%d})\n")


class Migration(migrations.Migration):

    dependencies = [
        ("topup", "0003_api_tokens"),
        ("authtoken", "0004_alter_tokenproxy_options"),
    ]

    operations = [migrations.RunPython(list_legacy_keys, migrations.RunPython.noop)]
