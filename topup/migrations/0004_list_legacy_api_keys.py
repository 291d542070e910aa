"""Listed the DRF `authtoken` keys that existed when hashed merchant tokens arrived.

Now a no-op: the `authtoken` app is no longer installed (one API credential), so this
migration neither reads its table nor depends on its migrations. Migration 0008 converts the
keys into merchant tokens and removes the table.
"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("topup", "0003_api_tokens"),
    ]

    operations = [migrations.RunPython(migrations.RunPython.noop, migrations.RunPython.noop)]
