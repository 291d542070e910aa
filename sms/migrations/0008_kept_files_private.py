"""Kept files become private (issue 27): rows from before are marked "to secure".

A migration cannot well call the provider (no network in a deploy step, no retries), so it
only marks every row that holds a file as not yet private; `sms.services.secure_kept_files`
(beat job `sms-secure-kept-files`, command `sms_secure_kept_files`) then copies each file to
the private form and points the row at it. New rows are private from the start (default True).
"""

from django.db import migrations, models


def mark_kept_files(apps, schema_editor):
    for name in ("Campaign", "SuppressionImport"):
        model = apps.get_model("sms", name)
        model.objects.exclude(source_file="").update(file_is_private=False)


class Migration(migrations.Migration):

    dependencies = [
        ('sms', '0007_invalid_numbers_index'),
    ]

    operations = [
        migrations.AddField(
            model_name='campaign',
            name='file_is_private',
            field=models.BooleanField(default=True, editable=False, verbose_name='file kept privately'),
        ),
        migrations.AddField(
            model_name='suppressionimport',
            name='file_is_private',
            field=models.BooleanField(default=True, editable=False, verbose_name='file kept privately'),
        ),
        migrations.RunPython(mark_kept_files, migrations.RunPython.noop),
    ]
