from django.db import migrations

# The order list matches our order numbers from their start (topup.views.orders.search_terms),
# through the unique index's pattern copy; the trigram index made for searching inside them
# (0006) served nothing any more and cost every insert.


def drop_custno_trigram(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute('DROP INDEX IF EXISTS "topup_order_custno_trgm"')


def add_custno_trigram(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute('CREATE INDEX IF NOT EXISTS "topup_order_custno_trgm" '
                              'ON "topup_order" USING gin (UPPER("custno") gin_trgm_ops)')


class Migration(migrations.Migration):

    dependencies = [
        ('topup', '0009_order_state_labels_capitalised'),
    ]

    operations = [
        migrations.RunPython(drop_custno_trigram, add_custno_trigram),
    ]
